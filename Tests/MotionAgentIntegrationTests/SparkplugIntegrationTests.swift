import AgentTestSupport
import Foundation
import MotionTestSupport
import Testing

/// The Sparkplug B 3.0 edge node of the real agent through a real mosquitto, read and driven by an
/// independent host application: pysparkplug (PyPI) in schemas/sparkplug_host.py. Births, data, the rebirth,
/// writes to the devices' control metrics, NDEATH with the right `bdSeq` after a SIGKILL and the next `bdSeq`
/// after a restart; the primary host going offline and back with no sample lost, on an agent that speaks
/// Sparkplug alone.
@Suite(.serialized) struct SparkplugIntegrationTests {
    static let group = "plant-it"

    /// One line the host printed: a message it received (decoded by pysparkplug), a mark, or an error.
    struct Line: Decodable {
        struct Metric: Decodable {
            var name: String?
            var alias: Int?
            var value: Value?
            var timestamp: Double?
            var historical: Bool
            var unit: String?
        }

        enum Value: Decodable, Equatable {
            case bool(Bool), number(Double), string(String), other
            init(from decoder: any Decoder) throws {
                let container = try decoder.singleValueContainer()
                if let bool = try? container.decode(Bool.self) {
                    self = .bool(bool)
                } else if let number = try? container.decode(Double.self) {
                    self = .number(number)
                } else if let string = try? container.decode(String.self) {
                    self = .string(string)
                } else {
                    self = .other
                }
            }
            var number: Double? { if case .number(let number) = self { number } else { nil } }
        }

        var type: String?
        var device: String?
        var seq: Int?
        var online: Bool?
        var metrics: [Metric]?
        var mark: String?
        var error: String?

        func metric(_ name: String) -> Metric? { metrics?.first { $0.name == name } }
    }

    /// The host running `actions` against the broker on `port`, printing to a file.
    final class Host {
        let child: ChildProcess
        let output: URL

        init(port: Int, hostID: String, actions: [String]) throws {
            output = FileManager.default.temporaryDirectory.appendingPathComponent("sparkplug-host-\(UUID().uuidString).jsonl")
            let script = Repository.schemas.appendingPathComponent("sparkplug_host.py").path
            child = try ChildProcess(
                "/usr/bin/env", ["PYTHONPATH=\(SenMLIntegrationTests.pythonPath)", "/usr/bin/python3", script, "\(port)", hostID] + actions,
                standardOutput: .file(output.path, appending: false), standardError: .file(output.path + ".err", appending: false))
        }

        deinit {
            child.killAndReap()
            try? FileManager.default.removeItem(at: output)
            try? FileManager.default.removeItem(atPath: output.path + ".err")
        }

        var lines: [Line] {
            let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            return text.split(separator: "\n").compactMap { try? JSONDecoder().decode(Line.self, from: Data($0.utf8)) }
        }

        /// Waits until the host printed `mark` (`subscribed` once it is subscribed to `spBv1.0/#`); false when
        /// it exited or `timeout` passed first.
        func waitForMark(_ mark: String, timeout: Duration = .seconds(30)) -> Bool {
            let printed = { self.lines.contains { $0.mark == mark } }
            return eventually(within: timeout) { printed() || child.hasExited } && printed()
        }

        /// Waits for the host to finish its actions; its exit status and what it said on standard error.
        func finish(timeout: Duration = .seconds(60)) -> (status: Int32?, errors: String) {
            let status = child.waitForExit(timeout: timeout)
            return (status, (try? String(contentsOfFile: output.path + ".err", encoding: .utf8)) ?? "")
        }
    }

    static func agent(
        broker: MosquittoBroker, deviceID: String, sparkplug: String, services: String = "{}", device: String = "sim:motion=stationary,rate=100"
    ) throws -> AgentProcess {
        let configuration = FileManager.default.temporaryDirectory.appendingPathComponent("\(deviceID)-\(UUID().uuidString).json")
        try Data(#"{"sparkplug": \#(sparkplug), "services": \#(services)}"#.utf8).write(to: configuration)
        return try AgentProcess(arguments: ["--config", configuration.path, "--broker", broker.url, "--id", deviceID, "--device", device])
    }

    /// The `seq` of every message of the node in arrival order runs on by one (mod 256) from 0 at each NBIRTH.
    static func expectSeqRunsOn(_ lines: [Line]) {
        var expected: Int?
        for line in lines where ["NBIRTH", "DBIRTH", "NDATA", "DDATA", "DDEATH"].contains(line.type) {
            if line.type == "NBIRTH" { expected = 0 }
            #expect(line.seq == expected, "\(line.type ?? "") \(line.device ?? "") seq \(line.seq ?? -1), expected \(expected ?? -1)")
            expected = ((line.seq ?? 0) + 1) % 256
        }
    }

    @Test func aHostReadsTheBirthsAndDataIsObeyedAndSeesTheDeathAfterAKill() throws {
        let broker = try MosquittoBroker()
        let deviceID = "spb-\(UUID().uuidString.prefix(6).lowercased())"
        let node = "\(Self.group)/\(deviceID)"
        let stateFile = FileManager.default.temporaryDirectory.appendingPathComponent("\(deviceID).bdseq").path
        defer { try? FileManager.default.removeItem(atPath: stateFile) }
        try Data("bdSeq 41\n".utf8).write(to: URL(fileURLWithPath: stateFile))
        let host = try Host(port: broker.port, hostID: "scada-it", actions: [
            "wait:NBIRTH", "wait:DDATA:accelerometer:3", "rebirth:\(node)", "wait:NBIRTH",
            "dcmd:\(node)/gyro:Control/Running:boolean:false", "sleep:1",
            "dcmd:\(node)/accelerometer:Control/Interval:double:0.5", "sleep:2.5",
            "dcmd:\(node)/accelerometer:Bogus:boolean:true", "dcmd:\(node)/accelerometer:Control/Interval:double:0", "sleep:0.5",
            "mark:kill", "wait:NDEATH",
        ])
        #expect(host.waitForMark("subscribed"))  // before the agent's births
        let agent = try Self.agent(
            broker: broker, deviceID: deviceID, sparkplug: #"{"group_id": "\#(Self.group)", "state_file": "\#(stateFile)"}"#,
            services: #"{"accelerometer": {"rate_hz": 10}}"#)
        #expect(host.waitForMark("kill"), "\(host.lines.compactMap(\.error)) \(agent.log)")
        agent.send(SIGKILL)
        let (status, errors) = host.finish()
        #expect(status == 0, "\(errors) \(host.lines.compactMap(\.error))")
        let lines = host.lines
        #expect(lines.allSatisfy { $0.error == nil }, "\(lines.compactMap(\.error))")

        // The births: bdSeq one more than the state file's, Node Control/Rebirth false, the devices with units.
        let nodeBirths = lines.filter { $0.type == "NBIRTH" }
        #expect(nodeBirths.count == 2)
        #expect(nodeBirths.allSatisfy { $0.metric("bdSeq")?.value == .number(42) && $0.metric("Node Control/Rebirth")?.value == .bool(false) })
        let accelerometerBirth = try #require(lines.first { $0.type == "DBIRTH" && $0.device == "accelerometer" })
        #expect(accelerometerBirth.metric("z")?.unit == "m/s2" && accelerometerBirth.metric("Control/Running")?.value == .bool(true))
        #expect(lines.contains { $0.type == "DBIRTH" && $0.device == "device-motion" && $0.metric("attitude/w") != nil })
        Self.expectSeqRunsOn(lines)

        // Data by alias, resolved by the host: the accelerometer at rest reads −9.81 m/s2 on z.
        let accelerometer = lines.filter { $0.type == "DDATA" && $0.device == "accelerometer" }
        let z = accelerometer.compactMap { $0.metric("z")?.value?.number }
        #expect(z.count >= 3 && z.allSatisfy { abs($0 + 9.80665) < 0.3 }, "\(z)")

        // The gyro stopped by a write: its Control/Running goes false and its samples stop.
        let gyro = lines.filter { $0.type == "DDATA" && $0.device == "gyro" }
        let stop = try #require(gyro.firstIndex { $0.metric("Control/Running")?.value == .bool(false) })
        #expect(gyro[(stop + 1)...].allSatisfy { $0.metric("x") == nil })

        // The accelerometer's interval written to 0.5 s: echoed, and the samples come 0.5 s apart.
        let echo = try #require(accelerometer.firstIndex { $0.metric("Control/Interval")?.value == .number(0.5) })
        let times = accelerometer[(echo + 1)...].compactMap { $0.metric("x")?.timestamp }
        #expect(times.count >= 3 && zip(times, times.dropFirst()).allSatisfy { abs($1 - $0 - 500) < 60 }, "\(times)")
        // A write to an unknown metric and one out of range change nothing and are logged.
        #expect(!accelerometer.contains { $0.metric("Control/Interval")?.value == .number(0) })
        #expect(agent.log.contains("unknown metric Bogus") && agent.log.contains("Control/Interval must be"))

        // SIGKILL: the broker publishes the will, NDEATH with this connection's bdSeq.
        let death = try #require(lines.last { $0.type == "NDEATH" })
        #expect(death.metric("bdSeq")?.value == .number(42))

        // A restart takes the next bdSeq from the state file.
        let second = try Host(port: broker.port, hostID: "scada-it", actions: ["wait:NBIRTH"])
        #expect(second.waitForMark("subscribed"))
        let restarted = try Self.agent(broker: broker, deviceID: deviceID, sparkplug: #"{"group_id": "\#(Self.group)", "state_file": "\#(stateFile)"}"#)
        #expect(second.finish().status == 0)
        #expect(second.lines.first { $0.type == "NBIRTH" }?.metric("bdSeq")?.value == .number(43))
        restarted.send(SIGTERM)
        _ = restarted.waitForExit(timeout: .seconds(5))
    }

    @Test func thePrimaryHostGoingOfflineAndBackLosesNoSample() throws {
        let broker = try MosquittoBroker()
        let deviceID = "spb-\(UUID().uuidString.prefix(6).lowercased())"
        let host = try Host(port: broker.port, hostID: "scada-it", actions: [
            "sleep:1", "online", "wait:NBIRTH", "wait:DDATA:accelerometer:10", "offline", "wait:NDEATH", "sleep:2", "online",
            "wait:NBIRTH", "wait:DDATA:accelerometer:10",
        ])
        // Sparkplug alone: nothing on the native topics.
        let native = try RecordingSubscriber(broker: broker.address, topicFilters: ["motion/#"])
        #expect(host.waitForMark("subscribed"))
        let agent = try Self.agent(
            broker: broker, deviceID: deviceID,
            sparkplug: #"{"group_id": "\#(Self.group)", "primary_host_id": "scada-it", "native_contract": false}"#,
            services: #"{"accelerometer": {"rate_hz": 10}}"#)
        let (status, errors) = host.finish()
        let lines = host.lines
        #expect(status == 0, "\(errors) \(lines.compactMap(\.error)) \(lines.compactMap { $0.type }.suffix(30)) \(agent.log)")
        agent.send(SIGTERM)
        _ = agent.waitForExit(timeout: .seconds(5))

        // Nothing before the host was online; births after each online, NDEATH in between, the next bdSeq after.
        let nodeLines = lines.filter { $0.type != nil && $0.type != "STATE" }
        #expect(nodeLines.first?.type == "NBIRTH")
        let births = lines.filter { $0.type == "NBIRTH" }.compactMap { $0.metric("bdSeq")?.value?.number }
        let deaths = lines.filter { $0.type == "NDEATH" }.compactMap { $0.metric("bdSeq")?.value?.number }
        #expect(births.count == 2 && births[1] == births[0] + 1 && deaths.first == births[0], "\(births) \(deaths)")
        Self.expectSeqRunsOn(lines)

        // Every accelerometer sample from the first to the last: those kept while the host was away came
        // after the second birth, historical, and no 0.1 s step is missing.
        let samples = lines.filter { $0.type == "DDATA" && $0.device == "accelerometer" }.flatMap { line in
            (line.metrics ?? []).filter { $0.name == "x" }
        }
        #expect(native.allRecords().isEmpty, "\(native.allRecords().map(\.message.topic).prefix(5))")
        let historical = samples.filter(\.historical)
        #expect(historical.count >= 15, "\(historical.count) historical of \(samples.count)")
        let times = Set(samples.compactMap(\.timestamp)).sorted()
        let gaps = zip(times, times.dropFirst()).map { $1 - $0 }
        #expect(times.count >= 25 && gaps.allSatisfy { $0 < 150 }, "\(times.count) samples, largest gap \(gaps.max() ?? 0) ms")
    }

    @Test func theStoreOutlivesAKillAndFollowsTheNextRunsBirths() throws {
        let broker = try MosquittoBroker()
        let deviceID = "spb-\(UUID().uuidString.prefix(6).lowercased())"
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sparkplug-store-\(deviceID)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let restarted = directory + "/restarted"
        let host = try Host(port: broker.port, hostID: "scada-it", actions: [
            "sleep:1", "online", "wait:NBIRTH", "wait:DDATA:accelerometer:5", "offline", "wait:NDEATH", "sleep:3", "mark:kill",
            "waitfile:\(restarted)", "online", "wait:NBIRTH", "wait:DDATA:accelerometer:10",
        ])
        #expect(host.waitForMark("subscribed"))
        let sparkplug = #"{"group_id": "\#(Self.group)", "primary_host_id": "scada-it", "native_contract": false, "store_file": "\#(directory)/store.db"}"#
        let services = #"{"accelerometer": {"rate_hz": 10}}"#
        let first = try Self.agent(broker: broker, deviceID: deviceID, sparkplug: sparkplug, services: services)
        #expect(host.waitForMark("kill"), "\(host.lines.compactMap(\.error)) \(first.log)")
        // Kept while the host is away, then a kill: only what the last commit interval (0.1 s) held may be lost.
        let killedAt = Date().timeIntervalSince1970 * 1000
        first.send(SIGKILL)
        _ = first.waitForExit(timeout: .seconds(5))

        let second = try Self.agent(broker: broker, deviceID: deviceID, sparkplug: sparkplug, services: services)
        #expect(eventually(within: .seconds(20)) { second.log.contains("metrics kept from the last run") }, "\(second.log)")
        #expect(FileManager.default.createFile(atPath: restarted, contents: nil))
        let (status, errors) = host.finish()
        let lines = host.lines
        #expect(status == 0, "\(errors) \(lines.compactMap(\.error)) \(second.log)")
        second.send(SIGTERM)
        _ = second.waitForExit(timeout: .seconds(5))

        // The first run's samples, from its first to the kill (5 with the host, then 3 s kept: at least 30 at
        // 10 Hz): those it kept while the host was away came after the second run's birth, historical, and no
        // 0.1 s step is missing.
        let births = try #require(lines.lastIndex { $0.type == "NBIRTH" })
        let samples = lines.filter { $0.type == "DDATA" && $0.device == "accelerometer" }.flatMap { line in
            (line.metrics ?? []).filter { $0.name == "x" }
        }
        let fromTheFirstRun = Set(samples.compactMap(\.timestamp).filter { $0 < killedAt - 200 }).sorted()
        let gaps = zip(fromTheFirstRun, fromTheFirstRun.dropFirst()).map { $1 - $0 }
        #expect(fromTheFirstRun.count >= 30 && gaps.allSatisfy { $0 < 150 }, "\(fromTheFirstRun.count) samples, largest gap \(gaps.max() ?? 0) ms")
        let afterTheBirth: [Line] = lines[births...].filter { $0.type == "DDATA" && $0.device == "accelerometer" }
        let forwarded: [Line.Metric] = afterTheBirth.flatMap { line -> [Line.Metric] in
            (line.metrics ?? []).filter { metric in metric.name == "x" && (metric.timestamp ?? .infinity) < killedAt }
        }
        #expect(forwarded.count >= 25 && forwarded.allSatisfy { $0.historical }, "\(forwarded.count) forwarded")
    }

    @Test func aDropReachesTheHostAsTheDetectorsEventsAndStates() throws {
        let broker = try MosquittoBroker()
        let deviceID = "spb-\(UUID().uuidString.prefix(6).lowercased())"
        // The simulated drop lets go 5 s into every 10 s: a free fall, then an impact.
        let host = try Host(port: broker.port, hostID: "scada-it", actions: ["wait:NBIRTH", "sleep:8"])
        #expect(host.waitForMark("subscribed"))
        let agent = try Self.agent(
            broker: broker, deviceID: deviceID, sparkplug: #"{"group_id": "\#(Self.group)", "native_contract": false}"#,
            services: #"{"accelerometer": {"rate_hz": 1}, "gyro": {"enabled": false}, "magnetometer": {"enabled": false}}"#,
            device: "sim:motion=drop")
        let (status, errors) = host.finish()
        agent.send(SIGTERM)
        _ = agent.waitForExit(timeout: .seconds(5))
        let lines = host.lines
        #expect(status == 0, "\(errors) \(lines.compactMap(\.error)) \(agent.log)")

        // Born with every event type's and state's metrics, null until they happen, with units.
        let birth = try #require(lines.first { $0.type == "DBIRTH" && $0.device == "detectors" })
        #expect(birth.metric("Events/free_fall/magnitude")?.unit == "m" && birth.metric("Events/impact/magnitude")?.unit == "g")
        #expect(birth.metric("Events/shake/count") != nil && birth.metric("State/tilted") != nil && birth.metric("State/angle")?.unit == "deg")
        Self.expectSeqRunsOn(lines)

        // The drop: one free fall of about 1 m lasting 0.45 s, then an impact, each at the time it began.
        let data = lines.filter { $0.type == "DDATA" && $0.device == "detectors" }.flatMap { $0.metrics ?? [] }
        let falls = data.filter { $0.name == "Events/free_fall/count" }
        let fall = try #require(falls.first)
        #expect(falls.count == 1 && fall.value == .number(1), "\(falls)")
        let height = try #require(data.first { $0.name == "Events/free_fall/magnitude" })
        let duration = try #require(data.first { $0.name == "Events/free_fall/duration" })
        #expect(abs((height.value?.number ?? 0) - 1) < 0.12 && abs((duration.value?.number ?? 0) - 0.4515) < 0.03, "\(height) \(duration)")
        #expect(height.timestamp == fall.timestamp && duration.timestamp == fall.timestamp)
        let impact = try #require(data.first { $0.name == "Events/impact/count" })
        #expect(impact.value == .number(1) && (impact.timestamp ?? 0) > (fall.timestamp ?? .infinity))
        // The states as they change: the board lies face up before it is dropped.
        #expect(data.contains { $0.name == "State/orientation" && $0.value == .string("face_up") }, "\(data.map { $0.name ?? "" })")
        #expect(data.contains { $0.name == "State/moving" })
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/protoc-c")))
    func theCheckedInCIsWhatProtocCGeneratesFromTheSchema() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sparkplug-c-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = Repository.root.appendingPathComponent("Deploy/generate-sparkplug-b.sh").path
        let result = try CommandLineTool.run("/bin/bash", [script, directory.path], timeout: .seconds(60))
        #expect(result.status == 0, "\(result.output)")
        let sources = Repository.root.appendingPathComponent("Sources/CSparkplugB")
        for file in ["sparkplug_b.pb-c.c", "include/sparkplug_b.pb-c.h"] {
            let generated = try Data(contentsOf: directory.appendingPathComponent(file))
            let checkedIn = try Data(contentsOf: sources.appendingPathComponent(file))
            #expect(generated == checkedIn, "\(file) differs from protoc-c's output: run Deploy/generate-sparkplug-b.sh")
        }
    }
}
