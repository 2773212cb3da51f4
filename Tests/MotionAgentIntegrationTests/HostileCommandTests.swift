import AgentTestSupport
import MotionContract
import Foundation
import MQTT
import MotionTestSupport
import Testing

@testable import MotionAgent

extension AgentEndToEndTests {
    /// Commands written by someone hostile: answers aimed at the devices' own topics, huge commands, and
    /// refusals that would flood or forge the log.
    @Suite(.timeLimit(.minutes(1))) struct HostileCommandTests {
        @Test func answersGoOnlyOutsideTheDeviceSubtrees() throws {
            let running = try RunningAgent.start()
            defer { running.cleanUp() }
            let topics = running.topics
            let other = TopicLayout(prefix: "motion", deviceID: "victim")
            let witness = try RecordingSubscriber(broker: running.broker.address, topicFilters: ["motion/#", "$SYS/x"])
            #expect(running.subscriber.waitForCount(on: topics.status(.gyro), count: 1), "\(running.agent.log)")
            // The witness too has seen the announcement (online … statuses), so none of it arrives after a clear.
            #expect(witness.waitForCount(on: topics.status(.deviceMotion), count: 1), "\(running.agent.log)")
            for target in [topics.status, topics.status(.gyro), other.control(.gyro), "motion", "motion/victim", "$SYS/x"] {
                running.subscriber.clear()
                witness.clear()
                var command = MQTTMessage(topic: topics.control(.gyro), string: "stop", qos: .atLeastOnce)
                command.responseTopic = target
                command.correlationData = Array(target.utf8)
                try running.subscriber.client.publish(command)
                // Refused on {base}/error, naming why; nothing was written to the target; the gyro still runs.
                let refusal = try #require(running.subscriber.waitForMessage(on: topics.error), "\(target): \(running.agent.log)")
                let answer = RunningAgent.object(refusal.message)
                #expect(answer?["ok"] as? Bool == false)
                #expect((answer?["error"] as? String)?.contains("outside motion/") == true || target.hasPrefix("$"), "\(answer ?? [:])")
                #expect(witness.messages(on: target).isEmpty, "nothing published on \(target)")
                #expect(running.subscriber.messages(on: topics.status(.gyro)).isEmpty, "the command changed nothing")
            }
            running.subscriber.clear()
            #expect(running.subscriber.waitForCount(on: topics.data(.gyro), count: 5), "the gyro was not stopped")
        }

        @Test func refusalsNeitherFloodNorForgeTheLog() throws {
            let running = try RunningAgent.start()
            defer { running.cleanUp() }
            #expect(running.subscriber.waitForCount(on: running.topics.status(.gyro), count: 1), "\(running.agent.log)")
            let key = "k\nFORGED 2026-01-01T00:00:00.000 connected to the broker\n" + String(repeating: "x", count: 3_900)
            let payload = "{\"" + key.replacingOccurrences(of: "\n", with: "\\n") + "\":1}"
            try running.send(payload, to: .gyro)
            let refusal = try #require(running.subscriber.waitForMessage(on: running.topics.error))
            let error = try #require(RunningAgent.object(refusal.message)?["error"] as? String)
            #expect(error.count <= ControlCommandError.maximumLength + 40, "answer of \(error.count) characters")
            #expect(eventually(within: .seconds(5)) { running.agent.log.contains("refused a command") })
            let lines = running.agent.log.split(separator: "\n")
            #expect(!lines.contains { $0.hasPrefix("FORGED") }, "a command wrote a line of its own")
            let refusedLine = try #require(lines.first { $0.contains("refused a command") })
            #expect(refusedLine.count < 600, "a refused command logged \(refusedLine.count) characters")
        }

        @Test(arguments: ["mqtt5", "mqtt311"])
        func aHugeCommandIsNotReadIntoMemory(protocol version: String) throws {
            let running = try RunningAgent.start(configuration: #"{"broker":{"protocol":"\#(version)"}}"#)
            defer { running.cleanUp() }
            #expect(running.subscriber.waitForCount(on: running.topics.status(.gyro), count: 1), "\(running.agent.log)")
            Thread.sleep(forTimeInterval: 0.5)
            let pid = running.agent.processIdentifier
            let before = try #require(ProcessMemory.kilobytes("VmHWM", of: pid))
            let huge = MQTTMessage(
                topic: running.topics.control(.gyro), payload: [UInt8](repeating: UInt8(ascii: " "), count: 16 << 20) + Array("stop".utf8),
                qos: .atLeastOnce)
            let id = try running.subscriber.client.publish(huge)
            #expect(running.subscriber.client.waitUntilPublished(messageID: id, timeout: .seconds(10)))
            Thread.sleep(forTimeInterval: 1)
            let after = try #require(ProcessMemory.kilobytes("VmHWM", of: pid))
            // MQTT 5: the broker does not send it (the agent announced its maximum packet size). MQTT 3.1.1:
            // libmosquitto reads it and copies it once (32 MB for a moment), the agent drops it without a
            // copy of its own (before, 16 MB took 58 MB more).
            let allowance = version == "mqtt5" ? 4_096 : 2 * 16_384 + 8_192
            print("16 MB command over \(version): peak resident memory \(before) kB before, \(after) kB after")
            #expect(after - before < allowance, "peak resident memory grew by \(after - before) kB")
            // Not obeyed, and the agent goes on.
            running.subscriber.clear()
            #expect(running.subscriber.waitForCount(on: running.topics.data(.gyro), count: 5), "\(running.agent.log)")
            if version == "mqtt5" {
                #expect(running.broker.waitForLog(containing: "Dropping too large outgoing PUBLISH"), "\(running.broker.log())")
            }
        }
    }
}
