import MotionContract
import MotionMath
import Testing

/// The data topics' CBOR form: round trips against the JSON form, RFC 8949's own examples, the first
/// byte that tells the formats apart, and hostile input refused with the offset.
@Suite struct CBORPayloadTests {
    private let encoder = SamplePayloadEncoder(wallClockOffset: 1_796_118_483.67683)

    /// The golden tests' sample (full-precision values, as the fusion makes them).
    private static let motion = ContractGoldenTests.motion

    /// Single precision: a relative error of at most 2⁻²⁴.
    private func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= abs(b) * 0x1p-24 }
    private func close(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Bool { close(a.x, b.x) && close(a.y, b.y) && close(a.z, b.z) }

    @Test func vectorsRoundTripWithExactTimesAndSinglePrecisionValues() throws {
        // Readings as a sensor gives them: no short decimals.
        let samples = (0..<3).map { VectorSample(timestamp: 11052.537661835 + Double($0) / 200, value: Self.motion.gravity * (1 + Double($0) / 997)) }
        for service in [MotionService.accelerometer, .gyro, .magnetometer] {
            for batch in [[samples[0]], samples] {
                let cbor = encoder.encode(batch, service: service, seq: 8, format: .cbor)
                let json = encoder.encode(batch, service: service, seq: 8)
                #expect(PayloadFormat.of(cbor) == .cbor && PayloadFormat.of(json) == .json)
                let fromCBOR = try SamplePayloadDecoder.vectors(cbor, service: service)
                let fromJSON = try SamplePayloadDecoder.vectors(json, service: service)
                #expect(fromCBOR.sequence == 8 && fromCBOR.isBatch == fromJSON.isBatch)
                #expect(fromCBOR.unixTimes == fromJSON.unixTimes, "times are double precision")
                #expect(zip(fromCBOR.samples, batch).allSatisfy { $0.timestamp == $1.timestamp && close($0.value, $1.value) })
                #expect(Double(cbor.count) < 0.6 * Double(json.count), "\(cbor.count) bytes against \(json.count)")
            }
        }
    }

    @Test func deviceMotionRoundTrips() throws {
        var sixAxis = Self.motion
        sixAxis.heading = -1
        sixAxis.magneticAccuracy = .uncalibrated
        let payload = encoder.encode([Self.motion, sixAxis], seq: 9, format: .cbor)
        let decoded = try SamplePayloadDecoder.deviceMotion(payload)
        #expect(decoded.sequence == 9 && decoded.samples.count == 2)
        for (got, sent) in zip(decoded.samples, [Self.motion, sixAxis]) {
            #expect(got.timestamp == sent.timestamp && got.magneticAccuracy == sent.magneticAccuracy)
            #expect(close(got.heading, sent.heading) && close(got.gravity, sent.gravity) && close(got.magneticField, sent.magneticField))
            #expect(close(got.attitude.w, sent.attitude.w) && close(got.attitude.z, sent.attitude.z))
        }
        #expect(try SamplePayloadDecoder.sequence(payload) == 9)
        #expect(try SamplePayloadDecoder.firstTimestamp(payload) == Self.motion.timestamp)
    }

    @Test func theSameDataModelAsJSON() throws {
        let payload = encoder.encode([Self.motion], seq: 1, format: .cbor)
        let json = try JSONValue.parse(encoder.encode([Self.motion], seq: 1))
        let cbor = try JSONValue.parse(cbor: payload)
        func keys(_ value: JSONValue) -> [String] {
            guard case .object(let members) = value else { return [] }
            return members.keys.sorted().flatMap { key in [key] + keys(members[key]!).map { "\(key).\($0)" } }
        }
        #expect(keys(cbor) == keys(json))
        #expect(payload.first == 0xA9, "a map of nine entries")
    }

    @Test(arguments: [
        // RFC 8949, appendix A.
        ([0x00], JSONValue.integer(0)), ([0x17], .integer(23)), ([0x18, 0x64], .integer(100)),
        ([0x1B, 0x00, 0x00, 0x00, 0xE8, 0xD4, 0xA5, 0x10, 0x00], .integer(1_000_000_000_000)),
        ([0x38, 0x63], .integer(-100)), ([0xF9, 0x3C, 0x00], .real(1)), ([0xFA, 0x47, 0xC3, 0x50, 0x00], .real(100_000)),
        ([0xFB, 0x3F, 0xF1, 0x99, 0x99, 0x99, 0x99, 0x99, 0x9A], .real(1.1)), ([0xF4], .bool(false)), ([0xF6], .null),
        ([0x64, 0x49, 0x45, 0x54, 0x46], .string("IETF")), ([0x62, 0xC3, 0xBC], .string("ü")),
        ([0x83, 0x01, 0x82, 0x02, 0x03, 0x82, 0x04, 0x05], .array([.integer(1), .array([.integer(2), .integer(3)]), .array([.integer(4), .integer(5)])])),
        ([0xA2, 0x61, 0x61, 0x01, 0x61, 0x62, 0x82, 0x02, 0x03], .object(["a": .integer(1), "b": .array([.integer(2), .integer(3)])])),
    ] as [([UInt8], JSONValue)])
    func readsTheRFCsExamples(bytes: [UInt8], value: JSONValue) throws {
        #expect(try JSONValue.parse(cbor: bytes) == value)
    }

    @Test(arguments: [
        ([0xA1, 0x61, 0x61], "ends inside"),  // a map whose value is missing
        ([0x9B, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00, 0x01], "a length of"),  // 2⁶⁸ elements claimed
        ([0xBB, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], "a length of"),  // a map of 2⁶³ entries
        ([0xA2, 0x61, 0x61, 0x01, 0x61, 0x61, 0x02], "duplicate map key"),
        ([0xA1, 0x01, 0x02], "not a text string"),
        ([0x43, 0x01, 0x02, 0x03], "byte string"),
        ([0xC1, 0x1A, 0x51, 0x4B, 0x67, 0xB0], "a tag"),
        ([0x9F, 0x01, 0xFF], "indefinite-length array"),
        ([0xF7], "undefined"),
        ([0xF9, 0x7C, 0x00], "not finite"),  // Infinity
        ([0x62, 0xC3, 0x28], "not UTF-8"),
        ([0x61, 0x00], "NUL"),
        ([0x01, 0x02], "bytes after the end"),
        ([0x1C], "malformed"),  // reserved additional information
    ] as [([UInt8], String)])
    func refusesWhatTheContractDoesNotUse(bytes: [UInt8], complaint: String) {
        #expect {
            try JSONValue.parse(cbor: bytes)
        } throws: { error in
            (error as? JSONValue.SyntaxError)?.reason.contains(complaint) == true
        }
    }

    @Test func deepNestingIsRefusedBeforeTheStackRunsOut() {
        let bytes = [UInt8](repeating: 0x81, count: 100_000) + [0x00]
        #expect(throws: JSONValue.SyntaxError.self) { try JSONValue.parse(cbor: bytes) }
    }

    @Test func aMapOfTwentyFourOrMoreEntriesGetsALongerHeader() throws {
        var writer = CBORWriter()
        for index in 0..<30 { writer.field("k\(index)", UInt64(index)) }
        let bytes = writer.finishedBytes()
        #expect(Array(bytes.prefix(2)) == [0xB8, 30])
        #expect(try JSONValue.parse(cbor: bytes).objectMembers?.count == 30)
    }
}
