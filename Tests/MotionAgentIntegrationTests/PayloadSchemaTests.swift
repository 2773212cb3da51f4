import AgentTestSupport
import Foundation
import MotionContract
import MQTT
import MotionTestSupport
import MotionHAL
import Testing

/// Every payload the real agent publishes, validated against the repository's JSON Schemas (schemas/)
/// by a real validator (python3-jsonschema, through schemas/validate.py), so that what subscribers in
/// any language validate against is what the agent sends.
@Suite(.serialized) struct PayloadSchemaTests {
    static let schemas = Repository.schemas

    /// Runs the validator on `payloads` (one per line; CBOR ones in hexadecimal, read by Python's cbor2)
    /// against `schema`; its exit status and output.
    static func validate(_ payloads: [[UInt8]], against schema: String, cbor: Bool = false) throws -> CommandLineTool.Result {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("payloads-\(UUID().uuidString).lines")
        let lines = cbor ? payloads.map { Array($0.map { String(format: "%02x", $0) }.joined().utf8) } : payloads
        try Data(lines.flatMap { $0 + [0x0A] }).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return try CommandLineTool.run(
            "/usr/bin/python3",
            [schemas.appendingPathComponent("validate.py").path] + (cbor ? ["--cbor"] : [])
                + [schemas.appendingPathComponent("\(schema).schema.json").path, file.path],
            timeout: .seconds(30))
    }

    @Test("CBOR data topics: content type, info's format, and every payload valid under the same schemas (read by cbor2)")
    func cborPayloadsMatchTheSameSchemas() throws {
        let running = try RunningAgent.start(
            configuration: """
                {"barometer": "sim",
                 "services": {"accelerometer": {"rate_hz": 20, "batch": 4, "format": "cbor"}, "gyro": {"rate_hz": 20, "format": "cbor"},
                              "magnetometer": {"rate_hz": 10, "mode": "mean", "format": "cbor"},
                              "device-motion": {"rate_hz": 20, "format": "cbor"},
                              "steps": {"rate_hz": 5, "heartbeat": 0.2, "format": "cbor"},
                              "activity": {"rate_hz": 5, "heartbeat": 0.2, "format": "cbor"},
                              "altitude": {"rate_hz": 5, "mode": "mean", "format": "cbor"}}}
                """,
            subscriber: { broker, topics in try RecordingSubscriber(broker: broker.address, topicFilters: ["\(topics.base)/#"]) })
        defer { running.cleanUp() }
        let topics = running.topics
        // The vibration service (off by default) has its own tests of CBOR (VibrationServiceIntegrationTests).
        for service in MotionService.allCases where service != .vibration {
            #expect(running.subscriber.waitForCount(on: topics.data(service), count: 5, timeout: .seconds(10)), "\(service)")
            let messages = running.subscriber.messages(on: topics.data(service))
            #expect(messages.allSatisfy { $0.contentType == "application/cbor" && PayloadFormat.of($0.payload) == .cbor })
            let result = try Self.validate(messages.map(\.payload), against: service.topicName, cbor: true)
            #expect(result.status == 0, "\(service.topicName): \(result.output)")
        }
        let info = try #require(running.subscriber.messages(on: topics.info).last)
        #expect(try InfoPayload(payload: info.payload).services.allSatisfy { $0.format == .cbor || $0.service == .vibration })
        #expect(try Self.validate([info.payload], against: "info").status == 0)
        let batch = try SamplePayloadDecoder.vectors(
            try #require(running.subscriber.messages(on: topics.data(.accelerometer)).last).payload, service: .accelerometer)
        #expect(batch.isBatch && batch.samples.count == 4)
    }

    @Test("samples, batches, averages, device motion, statuses, info, health, configuration, answers and errors match their schemas")
    func everyPublishedPayloadMatchesItsSchema() throws {
        let replies = "motionctl/schema-test/replies/\(UUID().uuidString.prefix(8))"
        let running = try RunningAgent.start(
            configuration: """
                {"health_interval": 1, "location": {"latitude": 52.52, "longitude": 13.40}, "barometer": "sim:motion=stairs",
                 "services": {"accelerometer": {"rate_hz": 20, "batch": 4}, "gyro": {"rate_hz": 20},
                              "magnetometer": {"rate_hz": 10, "mode": "mean"},
                              "device-motion": {"rate_hz": 20, "frame": "xTrueNorthZVertical"},
                              "steps": {"rate_hz": 5, "heartbeat": 0.2, "batch": 2}, "activity": {"rate_hz": 5, "heartbeat": 0.2},
                              "altitude": {"rate_hz": 5},
                              "vibration": {"enabled": true, "interval": 1, "lines": 100, "spectrum_interval": 1}}}
                """,
            subscriber: { broker, topics in
                try RecordingSubscriber(broker: broker.address, topicFilters: ["\(topics.base)/#", replies])
            })
        defer { running.cleanUp() }
        let topics = running.topics
        for service in MotionService.allCases {
            #expect(running.subscriber.waitForCount(on: topics.data(service), count: 5, timeout: .seconds(10)), "\(service)")
        }
        #expect(running.subscriber.waitForCount(on: topics.health, count: 2, timeout: .seconds(10)))
        // An accepted command with a response topic, a refused one without (answered on error), and a
        // stopped service's status.
        try running.subscriber.client.publish(MQTTMessage(
            topic: topics.control(.gyro), string: "stop", qos: .atLeastOnce, responseTopic: replies, correlationData: [1]))
        try running.send(#"{"interval": -3}"#, to: .magnetometer)
        let document = #"{"services":{"gyro":{"rate_hz":10,"mode":null},"magnetometer":{"deadband":0.5,"heartbeat":2}},"mount_matrix":"0, 1, 0; -1, 0, 0; 0, 0, 1"}"#
        try running.subscriber.client.publish(MQTTMessage(
            topic: topics.configurationControl, string: document, qos: .atLeastOnce, responseTopic: replies, correlationData: [2]))
        #expect(running.subscriber.waitForMessage(on: topics.configuration) { (try? ConfigurationReport(payload: $0.payload))?.version == 1 } != nil)
        #expect(running.subscriber.waitForCount(on: replies, count: 2))
        #expect(running.subscriber.waitForMessage(on: topics.error) != nil)
        #expect(running.subscriber.waitForMessage(on: topics.status(.gyro)) { (try? ServiceStatus(payload: $0.payload))?.active == false } != nil)

        func payloads(_ topic: String) -> [[UInt8]] { running.subscriber.messages(on: topic).map(\.payload) }
        var checks: [(schema: String, payloads: [[UInt8]])] = MotionService.allCases.map { ($0.topicName, payloads(topics.data($0))) }
        checks.append(("vibration-spectrum", payloads(topics.vibrationSpectrum)))
        checks.append(("state", payloads(topics.state(.vibration)).filter { !$0.isEmpty }))
        checks.append(("service-status", MotionService.allCases.flatMap { payloads(topics.status($0)) }))
        checks.append(("info", payloads(topics.info)))
        checks.append(("health", payloads(topics.health)))
        checks.append(("answer", payloads(replies) + payloads(topics.error)))
        checks.append(("config", payloads(topics.configuration)))
        checks.append(("config-set", [Array(document.utf8), Array(#"{"services":{"gyro":null},"health_interval":30}"#.utf8)]))
        checks.append((
            "command",
            [ControlCommand(active: true, interval: 0.5).payload(), Array(#"{"frame":"xArbitraryZVertical"}"#.utf8), Array(#"{"spectrum":true}"#.utf8)]
        ))
        for check in checks {
            #expect(!check.payloads.isEmpty, "\(check.schema): nothing to validate")
            let result = try Self.validate(check.payloads, against: check.schema)
            #expect(result.status == 0, "\(check.schema): \(result.output)")
        }
        #expect(payloads(topics.data(.accelerometer)).allSatisfy { String(decoding: $0, as: UTF8.self).contains(#""samples":["#) })
        // Contract 1.9: samples mark their Unix time uncertain exactly while the kernel calls the clock
        // unsynchronized (a VM without a time daemon does), and health says which.
        let synchronized = try #require(KernelClockStatus.current()).synchronized
        for service in [MotionService.gyro, .accelerometer, .deviceMotion] {
            let marked = payloads(topics.data(service)).map { String(decoding: $0, as: UTF8.self).contains(#""tsUncertain":true"#) }
            #expect(marked.allSatisfy { $0 == !synchronized }, "\(service): kernel synchronized \(synchronized)")
        }
        let health = try HealthPayload(payload: try #require(payloads(topics.health).last))
        #expect(health.clock?.synchronized == synchronized && health.clock?.steps == 0)
    }

    @Test("the validator is real: a payload missing a field, with a wrong type or an unknown field fails")
    func invalidPayloadsFail() throws {
        let cases: [(schema: String, payload: String, complaint: String)] = [
            ("gyro", #"{"seq":1,"timestamp":1.0,"ts":2.0}"#, "rotationRate"),
            ("service-status", #"{"available":"yes","active":true,"interval":0.1,"rate_hz":10.0}"#, "available"),
            ("answer", #"{"ok":false}"#, "error"),
            ("info", #"{"agent":"a","version":"1","device_id":"b","device":{"spec":"sim"},"services":{"gyro":{"topic":"t","units":"u","mode":"latest","format":"xml"}},"started":"now"}"#, "'xml' is not one of"),
            ("config-set", #"{"services":{"gyro":{"rate_hz":10,"interval":0.1}}}"#, "is not valid under any of the given schemas"),
            ("config-set", #"{"broker":{"url":"mqtt://elsewhere"}}"#, "Additional properties"),
            ("health", #"{"uptime":1.0}"#, "required"),
            ("device-motion", #"{"seq":1,"timestamp":1.0,"ts":2.0,"attitude":{"quaternion":{"x":0,"y":0,"z":0,"w":1},"roll":0,"pitch":0,"yaw":0},"rotationRate":{"x":0,"y":0,"z":0},"gravity":{"x":0,"y":0,"z":-1},"userAcceleration":{"x":0,"y":0,"z":0},"magneticField":{"field":{"x":20,"y":0,"z":-40},"accuracy":"great"},"heading":0}"#, "'great' is not one of"),
            ("info", #"{"agent":"a","version":"1","device_id":"Bad Id","device":{"spec":"sim"},"services":{},"started":"now","extra":1}"#, "device_id"),
        ]
        for check in cases {
            let result = try Self.validate([Array(check.payload.utf8)], against: check.schema)
            #expect(result.status == 1 && result.output.contains(check.complaint), "\(check.schema): \(result.output)")
        }
    }
}
