import MotionContract
import MotionMath
import MotionModel
import Testing

/// The Sparkplug B payload through protobuf-c (schemas/sparkplug_b.proto), its topics and the host's STATE:
/// the wire bytes against a hand-made protobuf encoding, every scalar datatype and property there and back,
/// what a host's command leaves out, and what a malformed payload is told. pysparkplug reads the real edge
/// node's payloads in SparkplugIntegrationTests.
@Suite struct SparkplugPayloadTests {
    @Test func theWireBytesAreTheSpecificationsProtobuf() {
        // timestamp (1) = 1, metrics (2) = [{name (1) "a", datatype (4) = 11 Boolean, boolean_value (14) = true}],
        // seq (3) = 2: fields in number order, varints and length-delimited as protobuf writes them.
        let payload = SparkplugPayload(timestamp: 1, metrics: [SparkplugMetric(name: "a", value: .boolean(true))], seq: 2)
        #expect(payload.encoded() == [0x08, 0x01, 0x12, 0x07, 0x0A, 0x01, 0x61, 0x20, 0x0B, 0x70, 0x01, 0x18, 0x02])
        // A float is fixed32 (field 12: tag 0x65), little-endian; an alias (2) is a varint.
        let float = SparkplugPayload(metrics: [SparkplugMetric(name: nil, alias: 300, value: .float(1))])
        #expect(float.encoded() == [0x12, 0x08, 0x10, 0xAC, 0x02, 0x65, 0x00, 0x00, 0x80, 0x3F])
    }

    @Test func everyScalarDatatypeAndPropertyReadsBackAsWritten() throws {
        let values: [SparkplugValue] = [
            .int8(-23), .int16(-300), .int32(-70_000), .int64(-5_000_000_000), .uint8(200), .uint16(60_000), .uint32(4_000_000_000),
            .uint64(18_000_000_000_000_000_000), .float(-1.5), .double(0.1), .boolean(false), .string("ü/€"), .text("long"),
            .uuid("123e4567-e89b-12d3-a456-426614174000"), .dateTime(1_800_000_000_123), .bytes([0, 255, 7]),
        ]
        var metrics = values.enumerated().map { index, value in
            SparkplugMetric(name: "m\(index)", alias: UInt64(index + 1), timestamp: 1_800_000_000_000 + UInt64(index), value: value)
        }
        metrics.append(SparkplugMetric(name: "declared", alias: 99, timestamp: 5, nullOf: .double))
        metrics[0].properties = [
            SparkplugProperty("engUnit", .string("m/s2")), SparkplugProperty("Quality", .int32(192)), SparkplugProperty("none", nil),
        ]
        metrics[1].isHistorical = true
        metrics[2].isTransient = true
        let payload = SparkplugPayload(timestamp: 1_800_000_000_999, metrics: metrics, seq: 255)
        let decoded = try SparkplugPayload(decoding: payload.encoded())
        #expect(decoded == payload)
        #expect(decoded.metric(named: "m0")?.engineeringUnit == "m/s2")
        // Int8 −23 travels as its own 8 bits, 0xE9 (pysparkplug refuses one sign-extended to 32).
        let int8 = SparkplugPayload(metrics: [SparkplugMetric(name: nil, alias: 1, value: .int8(-23))]).encoded()
        #expect(Array(int8.suffix(2)) == [0x50, 0xE9] || Array(int8.suffix(3)) == [0x50, 0xE9, 0x01])
    }

    @Test func aMetricSentByAliasAloneLeavesItsDatatypeToTheBirth() throws {
        let data = SparkplugPayload(timestamp: 1, metrics: [SparkplugMetric(name: nil, alias: 7, timestamp: 1, value: .float(2))], seq: 3)
        let decoded = try SparkplugPayload(decoding: data.encoded())
        #expect(decoded.metrics[0].dataType == .unknown && decoded.metrics[0].value == .float(2))
        // A host's command often gives no datatype either: the wire's type is read. Here name
        // "Control/Running" and boolean_value true, nothing else.
        let bytes: [UInt8] = [0x12, 0x13, 0x0A, 0x0F] + Array("Control/Running".utf8) + [0x70, 0x01]
        let read = try SparkplugPayload(decoding: bytes)
        #expect(read.metrics.count == 1 && read.metrics[0].name == "Control/Running")
        #expect(read.metrics[0].dataType == .unknown && read.metrics[0].value == .boolean(true))
        #expect(read.metrics[0].value?.number == nil && SparkplugValue.uint32(5).number == 5)
    }

    @Test func malformedPayloadsAreToldWhatIsWrong() {
        #expect(throws: PayloadError.self) { try SparkplugPayload(decoding: [0xFF, 0xFF, 0xFF]) }
        // A Boolean datatype with a double value.
        let mismatched: [UInt8] = [0x12, 0x0B, 0x20, 0x0B, 0x69] + [UInt8](repeating: 0, count: 8)
        #expect {
            try SparkplugPayload(decoding: mismatched)
        } throws: { error in
            (error as? PayloadError)?.description == "metrics[0]: the value is not of its datatype Boolean"
        }
        // Datatype 99 does not exist.
        #expect(throws: PayloadError.self) { try SparkplugPayload(decoding: [0x12, 0x04, 0x20, 0x63, 0x70, 0x01]) }
        // A metric with neither a value nor is_null.
        #expect(throws: PayloadError.self) { try SparkplugPayload(decoding: [0x12, 0x02, 0x20, 0x0B]) }
        #expect(throws: PayloadError.self) { try SparkplugPayload(decoding: [UInt8](repeating: 0, count: SparkplugPayload.maximumDecodedSize + 1)) }
        // A data set decodes as unsupported, not as an error.
        let dataSet: [UInt8] = [0x12, 0x05, 0x20, 0x10, 0x8A, 0x01, 0x00]
        #expect((try? SparkplugPayload(decoding: dataSet))?.metrics.first?.value == .unsupported(.dataSet))
    }

    @Test func deeplyNestedMessagesAreRefusedBeforeProtobufCRecursesIntoThem() throws {
        // protobuf-c's unpack recurses once per nested message: templates in templates (metric 18 → template,
        // template 2 → metric) or property sets in property values, as many as 256 KiB holds, would take
        // tens of thousands of stack frames. The wire is walked first and refused past the depth limit.
        func varint(_ value: Int) -> [UInt8] {
            var value = value
            var bytes: [UInt8] = []
            repeat {
                bytes.append(UInt8(value & 0x7F) | (value > 0x7F ? 0x80 : 0))
                value >>= 7
            } while value > 0
            return bytes
        }
        func nested(levels: Int) -> [UInt8] {
            // Built from the inside out, reversed: each level is a tag and the length of what it holds.
            var reversed: [UInt8] = [0x0B, 0x20]  // the innermost metric: datatype (4) = 11, is_null unset
            for level in 0..<levels {
                reversed += varint(reversed.count).reversed()
                // Template 2 (a metric), then metric 18 (a template): field 18's tag is two bytes, 0x92 0x01.
                reversed += level % 2 == 0 ? [0x12] : [0x01, 0x92]
            }
            reversed += [0x13, 0x20]  // the outer metric's datatype (4) = 19, Template
            return [0x12] + varint(reversed.count) + reversed.reversed()  // payload 2 (the outer metric)
        }
        #expect {
            try SparkplugPayload(decoding: nested(levels: 40_000))
        } throws: { error in
            (error as? PayloadError)?.description.contains("nested deeper than") == true
        }
        // A template in a template is fine: the limit is for crafted input, not for real user-defined types.
        let shallow = try SparkplugPayload(decoding: nested(levels: 4))
        #expect(shallow.metrics.first?.value == .unsupported(.template))
    }

    @Test func topicsReadAndWriteAsTheNamespaceSays() {
        let device = SparkplugTopic.message(.deviceData, group: "plant-1", edgeNode: "press-7", device: "gyro")
        #expect(device.name == "spBv1.0/plant-1/DDATA/press-7/gyro")
        #expect(SparkplugTopic(device.name) == device)
        #expect(SparkplugTopic("spBv1.0/plant-1/NBIRTH/press-7") == .message(.nodeBirth, group: "plant-1", edgeNode: "press-7", device: nil))
        #expect(SparkplugTopic("spBv1.0/STATE/scada") == .state(hostID: "scada"))
        for wrong in ["spBv1.0/plant-1/NBIRTH/press-7/gyro", "spBv1.0/plant-1/DDATA/press-7", "spAv1.0/g/NBIRTH/n", "spBv1.0/g/XDATA/n",
                      "spBv1.0//NBIRTH/n", "spBv1.0/STATE/a/b", "spBv1.0"] {
            #expect(SparkplugTopic(wrong) == nil, "\(wrong)")
        }
        #expect(SparkplugTopic.identifierProblem("press-7") == nil)
        #expect(SparkplugTopic.identifierProblem("a/b") != nil && SparkplugTopic.identifierProblem("a+") != nil)
        #expect(SparkplugTopic.identifierProblem("") != nil && SparkplugTopic.identifierProblem("a\u{1}") != nil)
    }

    @Test func theHostsStateIsJSONWithOnlineAndTimestamp() throws {
        let state = try SparkplugHostState(decoding: Array(#"{"online":true,"timestamp":1668114759262}"#.utf8))
        #expect(state == SparkplugHostState(online: true, timestamp: 1_668_114_759_262))
        #expect(String(decoding: state.json(), as: UTF8.self) == #"{"online":true,"timestamp":1668114759262}"#)
        for wrong in [#"{"online":"yes","timestamp":1}"#, #"{"online":true}"#, #"ONLINE"#, #"{"online":true,"timestamp":-1}"#] {
            #expect(throws: PayloadError.self, "\(wrong)") { try SparkplugHostState(decoding: Array(wrong.utf8)) }
        }
    }

    /// Found by fuzz-sparkplug: `1e19` was taken as a timestamp and written back as the integer
    /// 10000000000000000000, which Jansson refuses (it reads integers up to 2⁶³ − 1). A state that decodes
    /// must decode again from its own JSON.
    @Test func aStateThatDecodesIsWrittenBackReadably() throws {
        for accepted in ["1.5e12", "9.2e18", "9.2233720368547748e18", "9223372036854775807", "0", "-0.0"] {
            let state = try SparkplugHostState(decoding: Array(#"{"online":false,"timestamp":\#(accepted)}"#.utf8))
            #expect(try SparkplugHostState(decoding: state.json()) == state, "\(accepted)")
        }
        #expect(try SparkplugHostState(decoding: Array(#"{"online":true,"timestamp":1.5e12}"#.utf8)).timestamp == 1_500_000_000_000)
        #expect(throws: PayloadError(fieldPath: "timestamp", reason: "must be a count of at most 9223372036854775807")) {
            try SparkplugHostState(decoding: Array(#"{"online":true,"timestamp":1e19}"#.utf8))
        }
        for beyond in ["1e19", "9.2233720368547758e18", "1.8446744073709552e19", "9223372036854775808"] {
            #expect(throws: (any Error).self, "\(beyond)") {
                try SparkplugHostState(decoding: Array(#"{"online":true,"timestamp":\#(beyond)}"#.utf8))
            }
        }
    }

    @Test func samplesBecomeMetricsWithSIUnitsAndTheirOwnTimes() {
        let encoder = SamplePayloadEncoder(wallClockOffset: 1_800_000_000)
        let samples = [VectorSample(timestamp: 10, value: SIMD3(0, 0.5, -1)), VectorSample(timestamp: 10.1, value: SIMD3(0, .nan, -1))]
        let metrics = encoder.sparkplugMetrics(samples, service: .accelerometer)
        #expect(metrics.map(\.name) == ["x", "y", "z", "x", "y", "z"])
        #expect(metrics.map(\.timestamp) == [1_800_000_010_000, 1_800_000_010_000, 1_800_000_010_000, 1_800_000_010_100, 1_800_000_010_100, 1_800_000_010_100])
        #expect(metrics[1].value == .float(4.903325) && metrics[1].engineeringUnit == "m/s2")
        // A reading that is not finite is sent as null.
        #expect(metrics[4].value == nil && metrics[4].dataType == .float)
        // Every metric a device can publish is declared, with its unit and no value.
        let declared = SamplePayloadEncoder.sparkplugDeclarations(for: .deviceMotion)
        #expect(declared.contains { $0.name == "heading" && $0.engineeringUnit == "rad" && $0.value == nil })
        #expect(declared.contains { $0.name == "uncertainty/heading" } && declared.contains { $0.name == "magneticField/accuracy" && $0.dataType == .string })
        #expect(SamplePayloadEncoder.sparkplugDeclarations(for: .steps).map(\.name)
            == ["steps", "distance", "cadence", "pace", "floorsAscended", "floorsDescended"])
        #expect(SamplePayloadEncoder.sparkplugDeclarations(for: .vibration).isEmpty)
    }
}
