import AgentTestSupport
import Foundation
import MotionContract
import MotionTestSupport
import Testing

/// `motionctl devices` against a real mosquitto and three real agents: one running, one killed (its
/// last will says offline) and one stopped with SIGSTOP (its retained status still says online, but it
/// has been silent for more than three health intervals: stale).
@Suite(.serialized) struct MotionctlDevicesTests {
    @Test("online, offline (killed) and stale (SIGSTOP) devices; patterns; exit status")
    func listsTheFleetWithItsStates() throws {
        let broker = try MosquittoBroker()
        let run = UUID().uuidString.prefix(6).lowercased()
        let configuration = FileManager.default.temporaryDirectory.appendingPathComponent("devices-\(run).json")
        try Data(#"{"health_interval": 1, "services": {"gyro": {"rate_hz": 20}}}"#.utf8).write(to: configuration)
        defer { try? FileManager.default.removeItem(at: configuration) }
        let ids = ["live", "killed", "stopped"].map { "fleet-\($0)-\(run)" }
        let subscriber = try RecordingSubscriber(broker: broker.address, topicFilters: ["motion/+/health"])
        let agents = try ids.map { id in
            try AgentProcess(arguments: ["--config", configuration.path, "--broker", broker.url, "--id", id, "--device", "sim"])
        }
        for id in ids {
            #expect(subscriber.waitForMessage(on: "motion/\(id)/health", timeout: .seconds(10)) != nil, "\(id) reports")
        }
        agents[1].send(SIGKILL)
        agents[2].send(SIGSTOP)
        defer {
            agents[2].send(SIGCONT)
            agents.forEach { $0.send(SIGTERM) }
        }
        Thread.sleep(forTimeInterval: 3.5)  // more than three health intervals of silence

        let listing = try AgentProcess.run("motionctl", arguments: ["devices", "--broker", broker.url, "--json", "--wait", "1.5"])
        #expect(listing.status == 1, "one device is not online: \(listing.log)")
        let document = try JSONSerialization.jsonObject(with: Data(listing.output.utf8)) as? [String: Any]
        let devices = (document?["devices"] as? [[String: Any]]) ?? []
        let states = Dictionary(uniqueKeysWithValues: devices.compactMap { entry in
            (entry["device"] as? String).map { ($0, entry["state"] as? String ?? "?") }
        })
        #expect(states == [ids[0]: "online", ids[1]: "offline", ids[2]: "stale"], "\(listing.output)")
        let live = devices.first { $0["device"] as? String == ids[0] }
        let gyro = (live?["services"] as? [String: Any])?["gyro"] as? [String: Any]
        #expect(gyro?["state"] as? String == "active" && (gyro?["configured_rate_hz"] as? NSNumber)?.doubleValue == 20)
        let measured = (gyro?["measured_rate_hz"] as? NSNumber)?.doubleValue ?? 0
        #expect((14...26).contains(measured), "measured \(measured) msg/s at 20 Hz")
        #expect(live?["agent_version"] is String && live?["started"] is String && live?["health_interval"] as? NSNumber == 1)

        // A pattern that matches only the live device: the table, exit status 0.
        let one = try AgentProcess.run("motionctl", arguments: ["devices", "fleet-live-*", "--broker", broker.url, "--wait", "0.5"])
        #expect(one.status == 0, "\(one.log)")
        let lines = one.output.split(separator: "\n")
        #expect(lines.count == 2 && lines[0].hasPrefix("DEVICE") && lines[1].hasPrefix("\(ids[0])  online"), "\(one.output)")
        // None matches: exit status 2; a pattern no id can match is a usage error.
        let none = try AgentProcess.run("motionctl", arguments: ["devices", "nothing-*", "--broker", broker.url, "--wait", "0.5"])
        #expect(none.status == 2 && none.log.contains("no device under motion/ matches nothing-*"), "\(none.log)")
        let bad = try AgentProcess.run("motionctl", arguments: ["devices", "Board/1", "--broker", broker.url])
        #expect(bad.status == 64 && bad.log.contains("cannot appear in a device id"), "\(bad.log)")
    }

    @Test("a Sparkplug-only agent: listed from its data and the births --rebirth asks for, offline from its death")
    func listsASparkplugOnlyAgent() throws {
        let broker = try MosquittoBroker()
        let id = "spb-only-\(UUID().uuidString.prefix(6).lowercased())"
        let configuration = FileManager.default.temporaryDirectory.appendingPathComponent("\(id).json")
        try Data(#"""
            {"sparkplug": {"group_id": "fleet-it", "native_contract": false}, "services": {"accelerometer": {"rate_hz": 10}}}
            """#.utf8).write(to: configuration)
        defer { try? FileManager.default.removeItem(at: configuration) }
        let subscriber = try RecordingSubscriber(broker: broker.address, topicFilters: ["spBv1.0/fleet-it/#", "motion/#"])
        let agent = try AgentProcess(arguments: ["--config", configuration.path, "--broker", broker.url, "--id", id, "--device", "sim"])
        defer { agent.send(SIGKILL) }
        #expect(subscriber.waitForMessage(on: "spBv1.0/fleet-it/DDATA/\(id)/accelerometer", timeout: .seconds(10)) != nil, "\(agent.log)")
        #expect(subscriber.allRecords().allSatisfy { !$0.message.topic.hasPrefix("motion/") }, "no native topic")

        // motionctl starts listening after the births: it hears data, asks for a rebirth, and reads the births.
        func listing(wait: Double) throws -> (status: Int32?, device: [String: Any]?, log: String) {
            let result = try AgentProcess.run(
                "motionctl", arguments: ["devices", "--broker", broker.url, "--json", "--wait", "\(wait)", "--rebirth", "--sparkplug-group", "fleet-it"])
            let document = try? JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
            let device = (document?["devices"] as? [[String: Any]])?.first { $0["device"] as? String == id }
            return (result.status, device, result.output + result.log)
        }
        let live = try listing(wait: 2)
        #expect(live.status == 0, "\(live.log)")
        #expect(live.device?["state"] as? String == "online" && live.device?["sparkplug"] as? String == "fleet-it/\(id)", "\(live.log)")
        #expect(live.device?["agent_version"] is String && live.device?["imu"] is String, "from the NBIRTH: \(live.log)")
        let accelerometer = (live.device?["services"] as? [String: Any])?["accelerometer"] as? [String: Any]
        #expect(accelerometer?["state"] as? String == "active" && (accelerometer?["configured_rate_hz"] as? NSNumber)?.doubleValue == 10)
        let measured = (accelerometer?["measured_rate_hz"] as? NSNumber)?.doubleValue ?? 0
        #expect((6...14).contains(measured), "measured \(measured) msg/s at 10 Hz")

        // Killed while motionctl listens (after the rebirth it asked for): the broker publishes its will,
        // NDEATH with the bdSeq of those births, and the agent is listed offline.
        // The births that this listing's rebirth brings are one DBIRTH of the accelerometer more than so far.
        let births = "spBv1.0/fleet-it/DBIRTH/\(id)/accelerometer"
        let birthsSoFar = subscriber.records(on: births).count
        DispatchQueue.global().async {
            _ = subscriber.waitForCount(on: births, count: birthsSoFar + 1, timeout: .seconds(5))
            agent.send(SIGKILL)
        }
        let after = try listing(wait: 4)
        #expect(subscriber.records(on: "spBv1.0/fleet-it/NCMD/\(id)").count == 2, "each listing asked for a rebirth")
        #expect(subscriber.records(on: births).count == birthsSoFar + 1, "the agent was born again before it was killed")
        #expect(after.status == 1 && after.device?["state"] as? String == "offline", "\(after.log)")
    }

    @Test("an unreachable broker is exit status 69")
    func unreachableBroker() throws {
        let result = try AgentProcess.run("motionctl", arguments: ["devices", "--broker", "mqtt://127.0.0.1:1", "--wait", "0.2"])
        #expect(result.status == 69, "\(result.log)")
    }
}
