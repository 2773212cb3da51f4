import AgentTestSupport
import Foundation
import MQTT
import MotionContract
import MotionTestSupport
import Testing

/// SenML (RFC 8428) from the real agent through a real broker, read by independent implementations:
/// kpn-senml (PyPI) and Python's json and cbor2 with RFC 8428's resolution rules (schemas/senml_decode.py),
/// in both encodings, for the sensor services, device motion and a batched topic.
@Suite(.serialized) struct SenMLIntegrationTests {
    static let baseName = "urn:dev:mac:0024beffff804ff1_bench-7:"

    /// One decoded payload, as schemas/senml_decode.py prints it.
    struct Decoded: Decodable {
        struct Record: Decodable {
            var n: String
            var t: Double
            var u: String?
            var v: Double?
            var vs: String?
        }
        var format: String
        var kpn: [[JSONScalar]]
        var resolved: [Record]

        /// A kpn-senml entry: a string, a number or null.
        enum JSONScalar: Decodable {
            case string(String), number(Double), bool(Bool), null
            init(from decoder: any Decoder) throws {
                let container = try decoder.singleValueContainer()
                if container.decodeNil() { self = .null } else if let bool = try? container.decode(Bool.self) { self = .bool(bool) } else if let number = try? container.decode(Double.self) { self = .number(number) } else { self = .string(try container.decode(String.self)) }
            }
        }
    }

    /// Where install-deps put kpn-senml (``MOTION_PYTHON_PATH`` or the user's cache).
    static var pythonPath: String {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["MOTION_PYTHON_PATH"] { return path }
        let cache = environment["XDG_CACHE_HOME"] ?? "\(environment["HOME"] ?? "/root")/.cache"
        return "\(cache)/motionbridge/python"
    }

    /// Decodes `payloads` with schemas/senml_decode.py.
    static func decode(_ payloads: [[UInt8]]) throws -> [Decoded] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("senml-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var files: [String] = []
        for (index, payload) in payloads.enumerated() {
            let file = directory.appendingPathComponent("\(index).senml").path
            try Data(payload).write(to: URL(fileURLWithPath: file))
            files.append(file)
        }
        let script = Repository.schemas.appendingPathComponent("senml_decode.py").path
        let result = try CommandLineTool.run(
            "/usr/bin/env", ["PYTHONPATH=\(pythonPath)", "/usr/bin/python3", script] + files, timeout: .seconds(60))
        guard result.status == 0 else {
            throw SenMLDecodeFailure("senml_decode.py failed (kpn-senml from PyPI is installed by Deploy/install-deps.sh): \(result.output)")
        }
        return try result.output.split(separator: "\n").filter { $0.hasPrefix("{") }.map {
            try JSONDecoder().decode(Decoded.self, from: Data($0.utf8))
        }
    }

    @Test func everyEncodingIsReadByIndependentDecodersWithItsNamesUnitsValuesAndTimes() throws {
        let running = try RunningAgent.start(
            configuration: """
                {"senml": {"base_name": "\(Self.baseName)"},
                 "services": {"accelerometer": {"rate_hz": 10, "format": "senml+json"},
                              "gyro": {"rate_hz": 10, "batch": 3, "format": "senml+cbor"},
                              "magnetometer": {"rate_hz": 10, "format": "senml+cbor"},
                              "device-motion": {"rate_hz": 10, "format": "senml+json"}}}
                """,
            device: "sim:motion=stationary,rate=100")
        defer { running.cleanUp() }
        let topics = running.topics
        let subscriber = running.subscriber
        for service in [MotionService.accelerometer, .gyro, .magnetometer, .deviceMotion] {
            #expect(subscriber.waitForCount(on: topics.data(service), count: 3, timeout: .seconds(10)), "\(service)")
        }
        let now = Date().timeIntervalSince1970
        func decoded(_ service: MotionService) throws -> (messages: [MQTTMessage], packs: [Decoded]) {
            let messages = Array(subscriber.messages(on: topics.data(service)).prefix(3))
            return (messages, try Self.decode(messages.map(\.payload)))
        }

        // The accelerometer face up at rest: z = −1 g = −9.80665 m/s2, in SenML JSON.
        let accelerometer = try decoded(.accelerometer)
        #expect(accelerometer.messages.allSatisfy { $0.contentType == "application/senml+json" })
        for pack in accelerometer.packs {
            #expect(pack.format == "senml+json")
            #expect(pack.resolved.map(\.n) == ["x", "y", "z"].map { Self.baseName + "accelerometer:" + $0 })
            #expect(pack.resolved.allSatisfy { $0.u == "m/s2" && abs($0.t - now) < 30 })
            #expect(abs((pack.resolved[2].v ?? 0) + 9.80665) < 0.3, "\(pack.resolved)")
            // kpn-senml reads the same names and values under the same base name.
            #expect(pack.kpn.count == 3)
            if case .string(let name) = pack.kpn[0][0] { #expect(name == Self.baseName + "accelerometer:") } else { Issue.record("kpn: no base name") }
        }

        // The gyroscope in batches of three, SenML CBOR: later samples at their relative times.
        let gyro = try decoded(.gyro)
        #expect(gyro.messages.allSatisfy { $0.contentType == "application/senml+cbor" })
        for pack in gyro.packs {
            #expect(pack.format == "senml+cbor" && pack.resolved.count == 9)
            #expect(pack.resolved.allSatisfy { $0.u == "rad/s" && abs($0.v ?? 1) < 0.05 })
            let times = stride(from: 0, to: 9, by: 3).map { pack.resolved[$0].t }
            #expect(zip(times, times.dropFirst()).allSatisfy { abs($1 - $0 - 0.1) < 0.02 }, "\(times)")
            #expect(pack.kpn.count >= 3)
        }

        // The magnetometer in tesla.
        let magnetometer = try decoded(.magnetometer)
        for pack in magnetometer.packs {
            let field = pack.resolved.compactMap(\.v)
            let strength = (field.map { $0 * $0 }.reduce(0, +)).squareRoot()
            #expect(pack.resolved.allSatisfy { $0.u == "T" } && (20e-6...70e-6).contains(strength), "\(field)")
        }

        // Device motion: gravity along −z in m/s2, the attitude's quaternion, the field's accuracy as a string.
        let motion = try decoded(.deviceMotion)
        for pack in motion.packs {
            let byName = Dictionary(pack.resolved.map { ($0.n.replacingOccurrences(of: Self.baseName + "device-motion:", with: ""), $0) }) { first, _ in first }
            #expect(abs((byName["gravity:z"]?.v ?? 0) + 9.80665) < 0.1 && byName["gravity:z"]?.u == "m/s2")
            let quaternion = ["x", "y", "z", "w"].compactMap { byName["attitude:\($0)"]?.v }
            #expect(quaternion.count == 4 && abs(quaternion.map { $0 * $0 }.reduce(0, +) - 1) < 1e-5)
            #expect(byName["rotationRate:x"]?.u == "rad/s" && byName["magneticField:x"]?.u == "T")
            #expect(byName["magneticField:accuracy"]?.vs != nil && byName["roll"]?.u == "rad")
        }

        // info says which topics are SenML.
        let late = try RecordingSubscriber(broker: running.broker.address, topicFilters: [topics.info])
        #expect(late.waitForCount(on: topics.info, count: 1))
        let info = try InfoPayload(payload: try #require(late.messages(on: topics.info).first).payload)
        #expect(info.services.first { $0.service == .gyro }?.format == .senmlCBOR)
        #expect(try PayloadSchemaTests.validate([try #require(late.messages(on: topics.info).first).payload], against: "info").status == 0)
    }
}

/// schemas/senml_decode.py could not run.
private struct SenMLDecodeFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
