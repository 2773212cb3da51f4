import AgentTestSupport
import Foundation
import MQTT
import MotionContract
import MotionTestSupport
import Testing

extension AgentEndToEndTests {
    /// What the agent does with the files it keeps (the offline buffer, the remote configuration's state
    /// file) when they are not its own or cannot be written: issue 29, F3, F12 and F13, with the real agent
    /// and a real mosquitto.
    @Suite(.serialized, .timeLimit(.minutes(2))) struct StorageFallbackTests {
        static func directory() throws -> URL {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("storage-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            return directory
        }

        /// F3: agent `sa` buffered QoS 1 data during an outage and was SIGKILLed; agent `sb` started on the same
        /// `offline_buffer.path` published 77 of `sa`'s messages on `motion/sa/gyro`.
        @Test("another device's buffered messages stay in the file for it, said in the log and in health")
        func aBufferFileIsKeyedByItsDevice() throws {
            let directory = try Self.directory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let buffer = directory.appendingPathComponent("offline.db").path
            let configuration = directory.appendingPathComponent("agent.json").path
            try Data(#"""
                {"services":{"gyro":{"rate_hz":50,"qos":1},"accelerometer":{"enabled":false},"magnetometer":{"enabled":false},
                 "device-motion":{"enabled":false}},"health_interval":1,
                 "broker":{"reconnect":{"min_delay":1,"max_delay":2},"offline_buffer":{"path":"\#(buffer)"}}}
                """#.utf8).write(to: URL(fileURLWithPath: configuration))
            let broker = try MosquittoBroker(options: .init(persistence: true, unlimitedQueues: true))
            let watcher = try RecordingSubscriber(
                broker: broker.address, topicFilters: ["motion/#"], clientID: "storage-watcher", cleanSession: false)
            func agent(_ id: String) throws -> AgentProcess {
                try AgentProcess(arguments: ["--config", configuration, "--broker", broker.url, "--id", id, "--device", "sim"])
            }
            /// The `ts` (Unix time) of a message.
            func timestamp(_ message: MQTTMessage) -> Double {
                ((try? JSONSerialization.jsonObject(with: Data(message.payload))) as? [String: Any])?["ts"] as? Double ?? 0
            }
            /// sa's gyro messages published within `window` (Unix time): its outage.
            func outageMessages(_ window: ClosedRange<Double>) -> Int {
                watcher.messages(on: "motion/sa/gyro").filter { window.contains(timestamp($0)) }.count
            }
            let first = try agent("sa")
            #expect(watcher.waitForCount(on: "motion/sa/gyro", count: 10, timeout: .seconds(10)), "\(first.log)")
            broker.stop()
            let outage = Date().timeIntervalSince1970
            Thread.sleep(forTimeInterval: 1.5)
            first.send(SIGKILL)
            let outageWindow = outage...Date().timeIntervalSince1970
            _ = first.waitForExit(timeout: .seconds(2))

            let second = try agent("sb")
            try broker.restart()
            let health = watcher.waitForMessage(on: "motion/sb/health", timeout: .seconds(10)) { message in
                (try? HealthPayload(payload: message.payload))?.mqtt.queueOthers ?? 0 > 0
            }
            let report = try #require(health.flatMap { try? HealthPayload(payload: $0.message.payload) }, "\(second.log)")
            let others = try #require(report.mqtt.queueOthers)
            #expect(others >= 40, "sa's outage (~75 messages at 50 Hz) is counted as another's: \(others)")
            #expect(report.mqtt.queueProblem?.contains("messages of \"motion/sa at 127.0.0.1:\(broker.port)\"") == true, "\(report.mqtt)")
            #expect(second.log.contains("holds \(others) messages of \"motion/sa at"), "\(second.log)")
            // Kept messages would go before sb's own: once sb's own flow, none of sa's can still come.
            #expect(watcher.waitForCount(on: "motion/sb/gyro", count: 20, timeout: .seconds(10)), "\(second.log)")
            #expect(outageMessages(outageWindow) == 0, "sb published none of sa's messages")
            second.send(SIGTERM)
            #expect(second.waitForExit(timeout: .seconds(5)) == 0)

            // sa, back on its file, sends what it kept: the messages of its outage, and those it had sent just
            // before the broker stopped that were never acknowledged (stamped a little before `outage`), so
            // they are counted as what arrives after the restart stamped before the kill.
            let heardBefore = watcher.messages(on: "motion/sa/gyro").count
            func keptMessagesArrived() -> Int {
                watcher.messages(on: "motion/sa/gyro").dropFirst(heardBefore).filter { timestamp($0) <= outageWindow.upperBound }.count
            }
            let again = try agent("sa")
            defer {
                again.send(SIGTERM)
                _ = again.waitForExit(timeout: .seconds(5))
            }
            #expect(eventually(within: .seconds(10)) { keptMessagesArrived() == others },
                    "sa's kept messages arrive: \(keptMessagesArrived()) of \(others) \(again.log)")
            #expect(outageMessages(outageWindow) >= 40, "the outage's own messages among them")
        }

        /// F12: a directory at the state file's path, or a missing buffer directory, stopped the agent with
        /// exit 78 (which systemd does not restart). F13: a refusal quoting a 400-character value was 439
        /// characters, over the answer schema's 300.
        @Test("unusable storage paths are reported and kept in memory, not fatal; refusals stay within 300 characters")
        func unusableStorageIsNotFatal() throws {
            let directory = try Self.directory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let stateDirectory = directory.appendingPathComponent("state-is-a-directory").path
            try FileManager.default.createDirectory(atPath: stateDirectory, withIntermediateDirectories: true)
            let document = #"""
                {"remote_config":{"state_file":"\#(stateDirectory)"},"health_interval":1,
                 "broker":{"offline_buffer":{"path":"\#(directory.path)/missing/offline.db"}}}
                """#
            let path = directory.appendingPathComponent("agent.json").path
            try Data(document.utf8).write(to: URL(fileURLWithPath: path))
            let check = try AgentProcess.run("motion-agent", arguments: ["--config", path, "--check-config"])
            #expect(check.status == 0, "\(check.log)")
            let warnings = check.output.split(separator: "\n").filter { $0.hasPrefix("warning: ") }
            #expect(warnings.count == 2 && warnings.contains { $0.contains("remote_config.state_file") && $0.contains("memory only") }
                    && warnings.contains { $0.contains("broker.offline_buffer.path") && $0.contains("memory only") }, "\(check.output)")

            let running = try RunningAgent.start(configuration: document)
            defer {
                running.agent.send(SIGTERM)
                _ = running.agent.waitForExit(timeout: .seconds(5))
                running.cleanUp()
            }
            #expect(running.subscriber.waitForMessage(on: running.topics.status, timeout: .seconds(10)) { $0.payloadString == "online" } != nil,
                    "it runs: \(running.agent.log)")
            #expect(running.agent.log.contains("remote configuration kept in memory only"), "\(running.agent.log)")
            #expect(running.agent.log.contains("kept in memory only"), "\(running.agent.log)")
            let replies = "replies/\(running.deviceID)"
            let requester = try RecordingSubscriber(broker: running.broker.address, topicFilters: [replies])
            for (index, payload) in [#"{"health_interval":2}"#, #"{"services":{"gyro":{"mode":"\#(String(repeating: "x", count: 400))"}}}"#].enumerated() {
                try running.subscriber.client.publish(MQTTMessage(
                    topic: running.topics.configurationControl, string: payload, qos: .atLeastOnce, responseTopic: replies,
                    correlationData: [UInt8(index)]))
            }
            #expect(requester.waitForCount(on: replies, count: 2))
            let answers = requester.messages(on: replies).compactMap { try? CommandAnswer(payload: $0.payload) }
            let applied = try #require(answers.first { $0.ok })
            #expect(applied.version == 1 && applied.warning?.contains("kept in memory only") == true, "\(answers)")
            let refusal = try #require(answers.first { !$0.ok })
            #expect((refusal.error?.count ?? 0) <= 300 && refusal.error?.hasPrefix("configuration error: services.gyro.mode") == true,
                    "\(refusal.error?.count ?? 0) characters: \(refusal.error ?? "")")
            let health = running.subscriber.waitForMessage(on: running.topics.health, timeout: .seconds(5)) { message in
                (try? HealthPayload(payload: message.payload))?.stateFileProblem != nil
            }
            let report = try #require(health.flatMap { try? HealthPayload(payload: $0.message.payload) })
            #expect(report.stateFileProblem?.contains("not a writable regular file") == true && !report.mqtt.queueDurable
                    && report.mqtt.queueProblem?.contains("kept in memory only") == true, "\(report)")
        }
    }
}
