import AgentTestSupport
import Foundation
import MotionContract
import MQTT
import MotionTestSupport
import Testing

/// Remote configuration against a real mosquitto and real agent processes: `motionctl config set` over a
/// pattern is answered, applied without reconnecting, kept in the state file and still in force after a
/// restart; a bad document changes nothing; `motionctl config get` shows the sources.
@Suite(.serialized) struct RemoteConfigurationIntegrationTests {
    private func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("remote-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// An agent on the simulator with remote configuration kept in `directory`/`id`.state.json.
    private func startAgent(_ id: String, broker: MosquittoBroker, directory: URL) throws -> AgentProcess {
        let file = directory.appendingPathComponent("\(id).json")
        let configuration = """
            {"device_id": "\(id)", "device": "sim:rate=200", "broker": {"url": "\(broker.url)"},
             "health_interval": 5, "services": {"gyro": {"rate_hz": 50}},
             "remote_config": {"state_file": "\(directory.appendingPathComponent("\(id).state.json").path)"}}
            """
        try configuration.write(to: file, atomically: true, encoding: .utf8)
        return try AgentProcess(arguments: ["--config", file.path])
    }

    private func report(_ record: RecordingSubscriber.Record?) -> ConfigurationReport? {
        record.flatMap { try? ConfigurationReport(payload: $0.message.payload) }
    }

    private func report(_ message: MQTTMessage?) -> ConfigurationReport? {
        message.flatMap { try? ConfigurationReport(payload: $0.payload) }
    }

    @Test("a document pushed to a pattern is answered, applied, persisted and in force after a restart")
    func aPushedConfigurationSurvivesARestart() throws {
        let broker = try MosquittoBroker()
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = UUID().uuidString.prefix(6).lowercased()
        let ids = ["a", "b"].map { "conf-\($0)-\(run)" }
        let subscriber = try RecordingSubscriber(
            broker: broker.address, topicFilters: ["motion/+/config", "motion/+/gyro/status", "motion/+/status", "motion/+/gyro"])
        var agents = try ids.map { try startAgent($0, broker: broker, directory: directory) }
        defer { agents.forEach { $0.send(SIGTERM) } }
        for id in ids {
            let initial = report(subscriber.waitForMessage(on: "motion/\(id)/config", timeout: .seconds(10)))
            #expect(initial?.version == 0 && initial?.sources["services.gyro"] == .file, "\(id) reports its file's configuration")
        }
        let before = try #require(report(subscriber.messages(on: "motion/\(ids[0])/config").last))
        subscriber.clear()

        let set = try AgentProcess.run(
            "motionctl",
            arguments: ["config", "set", "conf-*-\(run)", "services.gyro.rate_hz=10", "services.gyro.mode=mean", "health_interval=30",
                        "--broker", broker.url, "--json"])
        #expect(set.status == 0, "\(set.log)")
        #expect(set.output.contains(#""device":"\#(ids[0])","result":"ok""#) && set.output.contains(#""device":"\#(ids[1])","result":"ok""#), "\(set.output)")
        for id in ids {
            let applied = report(subscriber.waitForMessage(on: "motion/\(id)/config") { (try? ConfigurationReport(payload: $0.payload))?.version == 1 })
            #expect(applied?.sources["services.gyro"] == .remote && applied?.sources["health_interval"] == .remote)
            #expect(applied?.sources["services.accelerometer"] == .file)
            let gyro = applied?.settings["services"]?.objectMembers?["gyro"]?.objectMembers
            #expect(gyro?["interval"]?.number == 0.1 && gyro?["mode"] == .string("mean"), "\(String(describing: gyro))")
            #expect(applied?.hash != before.hash)
            let status = subscriber.waitForMessage(on: "motion/\(id)/gyro/status") { (try? ServiceStatus(payload: $0.payload))?.interval == 0.1 }
            #expect(status != nil, "\(id)'s gyro runs at 10 Hz")
        }
        #expect(subscriber.messages(on: "motion/\(ids[0])/status").isEmpty, "applied without reconnecting (no new online)")
        let stateFile = directory.appendingPathComponent("\(ids[0]).state.json")
        let kept = try String(contentsOf: stateFile, encoding: .utf8)
        #expect(kept.contains(#""version":1"#) && kept.contains(#""rate_hz":10"#), "\(kept)")

        // A bad document: refused with the field path, nothing changes (no new report, same state file).
        subscriber.clear()
        let bad = try AgentProcess.run(
            "motionctl", arguments: ["config", "set", ids[0], "services.gyro.qos=7", "--broker", broker.url])
        #expect(bad.status == 64 && bad.log.contains("services.gyro.qos: must be 0, 1 or 2"), "refused before sending: \(bad.log)")
        let hostile = try RecordingSubscriber(broker: broker.address, topicFilters: ["motion/\(ids[0])/error"])
        for document in [#"{"services":{"gyro":{"rate_hz":10,"batch":0}}}"#, #"{"broker":{"url":"mqtt://evil:1883"}}"#, "not json"] {
            _ = try hostile.client.publish(MQTTMessage(topic: "motion/\(ids[0])/config/set", string: document, qos: .atLeastOnce))
        }
        #expect(hostile.waitForCount(on: "motion/\(ids[0])/error", count: 3))
        let errors = hostile.messages(on: "motion/\(ids[0])/error").compactMap { try? CommandAnswer(payload: $0.payload) }
        #expect(errors.count == 3 && errors.allSatisfy { !$0.ok })
        #expect(errors.contains { $0.error?.contains("services.gyro.batch") == true })
        #expect(errors.contains { $0.error?.contains("broker: cannot be changed remotely") == true })
        #expect(try String(contentsOf: stateFile, encoding: .utf8) == kept, "the state file is unchanged")
        Thread.sleep(forTimeInterval: 0.3)
        #expect(subscriber.messages(on: "motion/\(ids[0])/config").isEmpty, "no new configuration report")

        // Restart: the remote settings are in force again, with their version and sources.
        agents[0].send(SIGTERM)
        #expect(agents[0].waitForExit(timeout: .seconds(10)) == 0)
        subscriber.clear()
        agents[0] = try startAgent(ids[0], broker: broker, directory: directory)
        let restarted = report(subscriber.waitForMessage(on: "motion/\(ids[0])/config", timeout: .seconds(10)) { !$0.retain })
        #expect(restarted?.version == 1 && restarted?.sources["services.gyro"] == .remote, "\(String(describing: restarted))")
        #expect(subscriber.waitForMessage(on: "motion/\(ids[0])/gyro/status") { message in
            !message.retain && (try? ServiceStatus(payload: message.payload))?.interval == 0.1
        } != nil, "the gyro comes back at 10 Hz")

        let get = try AgentProcess.run("motionctl", arguments: ["config", "get", ids[0], "--broker", broker.url])
        #expect(get.status == 0, "\(get.log)")
        #expect(get.output.contains("version 1"), "\(get.output)")
        #expect(get.output.split(separator: "\n").contains { $0.hasPrefix("services.gyro.mode") && $0.hasSuffix("remote") }, "\(get.output)")
        #expect(get.output.split(separator: "\n").contains { $0.hasPrefix("services.accelerometer.interval") && $0.hasSuffix("file") }, "\(get.output)")

        // null hands the gyro back to the file.
        let reset = try AgentProcess.run("motionctl", arguments: ["config", "set", ids[0], "services.gyro=null", "--broker", broker.url])
        #expect(reset.status == 0, "\(reset.log)")
        let back = report(subscriber.waitForMessage(on: "motion/\(ids[0])/config") { (try? ConfigurationReport(payload: $0.payload))?.version == 2 })
        #expect(back?.sources["services.gyro"] == .file && back?.sources["health_interval"] == .remote)

        let unknown = try AgentProcess.run("motionctl", arguments: ["config", "get", "nobody-\(run)", "--broker", broker.url])
        #expect(unknown.status == 1 && unknown.log.contains("no configuration report"), "\(unknown.log)")
    }
}
