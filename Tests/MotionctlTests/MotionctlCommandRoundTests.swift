import AgentTestSupport
import Foundation
import MotionContract
import MotionTestSupport
import Testing

/// `motionctl start|stop|set PATTERN` against a real mosquitto and real agents: each command carries a
/// response topic and correlation data, each device's answer is awaited, and the devices that do not
/// confirm (refused, stopped with SIGSTOP so that it cannot answer, offline) are named.
@Suite(.serialized) struct MotionctlCommandRoundTests {
    @Test("start and stop over a pattern; a device that cannot answer and an offline one are named")
    func aRoundOverThreeDevices() throws {
        let broker = try MosquittoBroker()
        let run = UUID().uuidString.prefix(6).lowercased()
        let ids = ["a", "b", "hung", "gone"].map { "round-\($0)-\(run)" }
        let subscriber = try RecordingSubscriber(broker: broker.address, topicFilters: ["motion/+/gyro/status"])
        let agents = try ids.map { id in
            try AgentProcess(arguments: ["--broker", broker.url, "--id", id, "--device", "sim"])
        }
        for id in ids {
            #expect(subscriber.waitForMessage(on: "motion/\(id)/gyro/status", timeout: .seconds(10)) != nil, "\(id) announced")
        }
        agents[3].send(SIGTERM)
        #expect(agents[3].waitForExit(timeout: .seconds(10)) == 0, "clean stop publishes offline")
        agents[2].send(SIGSTOP)
        defer {
            agents[2].send(SIGCONT)
            agents.forEach { $0.send(SIGTERM) }
        }
        subscriber.clear()

        let stop = try AgentProcess.run(
            "motionctl", arguments: ["stop", "round-*-\(run)", "gyro", "--broker", broker.url, "--timeout", "2", "--json"])
        #expect(stop.status == 1, "\(stop.log)")
        #expect(stop.log.contains("did not confirm: \(ids[3]), \(ids[2])") || stop.log.contains("did not confirm: \(ids[2]), \(ids[3])"), "\(stop.log)")
        let results = ((try JSONSerialization.jsonObject(with: Data(stop.output.utf8)) as? [String: Any])?["results"] as? [[String: Any]]) ?? []
        let byDevice = Dictionary(uniqueKeysWithValues: results.map { ($0["device"] as? String ?? "?", $0["result"] as? String ?? "?") })
        #expect(byDevice == [ids[0]: "ok", ids[1]: "ok", ids[2]: "no answer", ids[3]: "offline"], "\(stop.output)")
        for id in ids.prefix(2) {
            let stopped = subscriber.waitForMessage(on: "motion/\(id)/gyro/status") { message in
                (try? ServiceStatus(payload: message.payload))?.active == false
            }
            #expect(stopped != nil, "\(id) stopped its gyro")
        }

        // Only the devices that answer: confirmed, exit 0; the new interval is in the status.
        subscriber.clear()
        let start = try AgentProcess.run(
            "motionctl", arguments: ["start", "round-[ab]-\(run)", "gyro", "--interval", "0.25", "--broker", broker.url])
        #expect(start.status == 0, "\(start.log)")
        #expect(start.output.split(separator: "\n").filter { $0.contains("  ok") }.count == 2, "\(start.output)")
        let restarted = subscriber.waitForMessage(on: "motion/\(ids[0])/gyro/status") { message in
            let status = try? ServiceStatus(payload: message.payload)
            return status?.active == true && status?.interval == 0.25
        }
        #expect(restarted != nil)

        // A refusal is named with the agent's reason; a command the agent would refuse is not sent.
        let refused = try AgentProcess.run(
            "motionctl", arguments: ["start", ids[0], "device-motion", "--frame", "xTrueNorthZVertical", "--broker", broker.url])
        #expect(refused.status == 1 && refused.output.contains("refused") && refused.output.contains("magnetic declination"), "\(refused.output)")
        let invalid = try AgentProcess.run("motionctl", arguments: ["set", ids[0], "gyro", #"{"interval":-1}"#, "--broker", broker.url])
        #expect(invalid.status == 64 && invalid.log.contains("COMMAND: interval"), "\(invalid.log)")
    }
}
