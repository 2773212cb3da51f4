import AgentTestSupport
import MotionContract
import Foundation
import MQTT
import MotionTestSupport
import Testing

@testable import MotionAgent

extension AgentEndToEndTests {
    /// What the network cannot make the agent hold: a flood of commands and a subscriber that stops
    /// reading leave its resident memory where it was.
    @Suite(.timeLimit(.minutes(1))) struct ResourceBoundTests {
        @Test func aFloodOfCommandsLeavesMemoryBoundedAndIsCounted() throws {
            let running = try RunningAgent.start()
            defer { running.cleanUp() }
            #expect(running.subscriber.waitForCount(on: running.topics.data(.gyro), count: 50), "\(running.agent.log)")
            Thread.sleep(forTimeInterval: 1)
            let pid = running.agent.processIdentifier
            let before = try #require(ProcessMemory.kilobytes("VmRSS", of: pid))
            // 30,000 commands as fast as a client can send them, QoS 0 (the broker does not throttle those),
            // a third valid, a third malformed, a third refused for their response topic.
            let flooder = try MQTTClient(configuration: .init(broker: running.broker.address, clientID: "flooder")) { _ in }
            try flooder.start()
            #expect(flooder.waitUntilConnected(timeout: .seconds(5)))
            for index in 0..<30_000 {
                var command = MQTTMessage(
                    topic: running.topics.control(MotionService.allCases[index % 4]),
                    string: index % 3 == 0 ? #"{"interval":0.02}"# : index % 3 == 1 ? #"{"interval":"x\#(index)"}"# : "stop")
                if index % 3 == 2 { command.responseTopic = running.topics.status }
                _ = try? flooder.publish(command)
            }
            Thread.sleep(forTimeInterval: 3)
            let after = try #require(ProcessMemory.kilobytes("VmRSS", of: pid))
            print("command flood: resident memory \(before) kB before, \(after) kB after 30000 commands")
            #expect(after - before < 8_192, "resident memory grew by \(after - before) kB")
            // Still serving, and the flood is visible in health.
            running.subscriber.clear()
            #expect(running.subscriber.waitForCount(on: running.topics.data(.deviceMotion), count: 20), "\(running.agent.log)")
            try running.send("start", to: .gyro)
            #expect(running.subscriber.waitForMessage(on: running.topics.status(.gyro), timeout: .seconds(5)) {
                RunningAgent.object($0)?["active"] as? Bool == true
            } != nil, "control still works")
            flooder.shutdown(timeout: .seconds(1))
        }

        @Test func aSubscriberThatStopsReadingDoesNotGrowTheAgent() throws {
            let running = try RunningAgent.start(configuration: #"{"services":{"gyro":{"rate_hz":200,"qos":1}}}"#)
            defer { running.cleanUp() }
            #expect(running.subscriber.waitForCount(on: running.topics.data(.gyro), count: 50), "\(running.agent.log)")
            // A subscriber to everything that then stops reading its socket: the broker queues for it.
            let received = FileManager.default.temporaryDirectory.appendingPathComponent("stalled-\(UUID().uuidString)")
            let stalled = try CommandLineTool.spawn(
                "/usr/bin/mosquitto_sub", ["-p", "\(running.broker.port)", "-t", "#", "-q", "1", "-c", "-i", "stalled"],
                outputPath: received.path)
            defer {
                try? FileManager.default.removeItem(at: received)
                kill(stalled, SIGCONT)
                kill(stalled, SIGKILL)
                var status: Int32 = 0
                waitpid(stalled, &status, 0)
            }
            // It has subscribed once messages reach it.
            #expect(eventually(within: .seconds(10)) {
                ((try? FileManager.default.attributesOfItem(atPath: received.path)[.size]) as? NSNumber)?.intValue ?? 0 > 0
            }, "the stalled subscriber receives before it stops reading")
            kill(stalled, SIGSTOP)
            let pid = running.agent.processIdentifier
            Thread.sleep(forTimeInterval: 1)
            let before = try #require(ProcessMemory.kilobytes("VmRSS", of: pid))
            Thread.sleep(forTimeInterval: 8)
            let after = try #require(ProcessMemory.kilobytes("VmRSS", of: pid))
            print("stalled subscriber: resident memory \(before) kB before, \(after) kB after 8 s of 200 Hz QoS 1 it did not read")
            #expect(after - before < 4_096, "resident memory grew by \(after - before) kB")
            running.subscriber.clear()
            #expect(running.subscriber.waitForCount(on: running.topics.data(.gyro), count: 100), "the others are still served")
        }
    }
}
