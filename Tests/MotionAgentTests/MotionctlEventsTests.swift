import Foundation
import MotionContract
import MotionTestSupport
import Testing

/// `motionctl events` against a real mosquitto and a real agent on the simulator's drop: the free fall and
/// the impact as lines, the current states first with `--states`, JSON lines, and a pattern that matches
/// no device printing nothing.
@Suite(.serialized) struct MotionctlEventsTests {
    @Test func followsTheFleetsEventsAndStates() throws {
        let running = try RunningAgent.start(device: "sim:motion=drop")
        defer { running.cleanUp() }
        let broker = running.broker.url
        // The states are retained: with --states the five current ones come first.
        #expect(running.subscriber.waitForCount(on: running.topics.state(.activity), count: 1, timeout: .seconds(10)))
        let states = try AgentProcess.run(
            "motionctl", arguments: ["events", "--states", "--json", "--count", "5", "--broker", broker], timeout: .seconds(15))
        #expect(states.status == 0, "\(states.log)")
        let objects = states.output.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(Set(objects.compactMap { $0["state"] as? String }) == Set(MotionStateName.allCases.map(\.rawValue)), "\(states.output)")
        #expect(objects.allSatisfy { $0["device"] as? String == running.deviceID && $0["value"] is [String: Any] })

        // The drop every 10 s: a free fall, then an impact.
        let events = try AgentProcess.run(
            "motionctl", arguments: ["events", "it-*", "--count", "2", "--broker", broker], timeout: .seconds(30))
        #expect(events.status == 0, "\(events.log)")
        let lines = events.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(events.output)")
        #expect(lines.first?.contains("  \(running.deviceID)  free_fall") == true && lines.first?.contains(" m in 0.4") == true, "\(lines)")
        #expect(lines.last?.contains("  impact ") == true && lines.last?.contains(" g in ") == true, "\(lines)")

        let nobody = try AgentProcess.run(
            "motionctl", arguments: ["events", "nobody-*", "--states", "--duration", "1", "--broker", broker], timeout: .seconds(10))
        #expect(nobody.status == 0 && nobody.output.isEmpty, "\(nobody.log)")
    }
}
