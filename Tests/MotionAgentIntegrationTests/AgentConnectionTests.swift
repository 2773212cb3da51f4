import AgentTestSupport
import MotionContract
import Foundation
import MQTT
import MotionTestSupport
import Synchronization
import Testing

@testable import MotionAgent

extension AgentEndToEndTests {
    /// The agent's broker connection end to end: command answers, stale commands, nothing lost across an
    /// outage, credentials, TLS and the fallback to MQTT 3.1.1.
    @Suite(.timeLimit(.minutes(1))) struct AgentConnectionTests {
        @Test func commandsAreAnsweredOnTheirResponseTopicWithTheCorrelationData() throws {
            let running = try RunningAgent.start()
            defer { running.cleanUp() }
            let replies = "replies/\(running.deviceID)"
            let requester = try RecordingSubscriber(broker: running.broker.address, topicFilters: [replies])
            #expect(running.subscriber.waitForCount(on: running.topics.status(.gyro), count: 1), "\(running.agent.log)")

            var command = MQTTMessage(topic: running.topics.control(.gyro), string: "stop", qos: .atLeastOnce)
            command.responseTopic = replies
            command.correlationData = [1, 2, 3, 0xff]
            try requester.client.publish(command)
            let ok = try #require(requester.waitForMessage(on: replies))
            #expect(RunningAgent.object(ok.message)?["ok"] as? Bool == true)
            #expect(ok.message.correlationData == [1, 2, 3, 0xff])
            #expect(ok.message.contentType == "application/json")
            #expect(running.subscriber.waitForMessage(on: running.topics.status(.gyro)) { RunningAgent.object($0)?["active"] as? Bool == false } != nil)

            var bad = MQTTMessage(topic: running.topics.control(.gyro), string: #"{"interval":"fast"}"#, qos: .atLeastOnce)
            bad.responseTopic = replies
            bad.correlationData = Array("request-2".utf8)
            try requester.client.publish(bad)
            #expect(requester.waitForMessage(on: replies) { $0.correlationData == Array("request-2".utf8) } != nil)
            let refusal = try #require(requester.messages(on: replies).last)
            #expect(RunningAgent.object(refusal)?["ok"] as? Bool == false)
            #expect((RunningAgent.object(refusal)?["error"] as? String)?.contains("interval") == true)
            // A malformed command without a response topic is answered on the error topic, after the two above:
            // once its answer is there, an answer to those would be too.
            try running.send("bogus", to: .gyro)
            #expect(running.subscriber.waitForCount(on: running.topics.error, count: 1))
            let errors = running.subscriber.messages(on: running.topics.error)
            #expect(errors.count == 1 && RunningAgent.object(errors[0])?["service"] as? String == "gyro",
                    "answered on the response topic only: \(errors.map(\.payloadString))")
        }

        @Test func aRetainedCommandPublishedLiveIsIgnored() throws {
            let running = try RunningAgent.start()
            defer { running.cleanUp() }
            #expect(running.subscriber.waitForCount(on: running.topics.data(.accelerometer), count: 5), "\(running.agent.log)")
            try running.send("stop", to: .accelerometer, retain: true)
            #expect(eventually(within: .seconds(10)) { running.agent.log.contains("ignored a retained command") }, "\(running.agent.log)")
            running.subscriber.clear()
            let rate = running.subscriber.arrivalRate(on: running.topics.data(.accelerometer), over: 50)
            #expect(rate.map { $0 >= 45 } == true, "the retained stop was obeyed: \(rate ?? 0) msg/s")
            _ = try running.subscriber.client.publish(
                MQTTMessage(topic: running.topics.control(.accelerometer), payload: [], qos: .atLeastOnce, retain: true))
        }


        private static func lastSequence(_ running: RunningAgent, _ topic: String) -> UInt64 {
            running.objects(on: topic).compactMap { ($0["seq"] as? NSNumber)?.uint64Value }.max() ?? 0
        }

        private static func waitForSequence(_ running: RunningAgent, _ topic: String, atLeast sequence: UInt64) -> Bool {
            running.subscriber.waitForMessage(on: topic, timeout: .seconds(15)) {
                ((RunningAgent.object($0)?["seq"] as? NSNumber)?.uint64Value ?? 0) >= sequence
            } != nil
        }

        /// What a subscriber with a persistent session received of an agent's accelerometer topic (QoS 1,
        /// 50 Hz) across a 2 s broker outage, and the agent's MQTT counters from its next health report.
        /// The detectors are off: their QoS 1 states would share the buffer with the topic counted here.
        private func outage(offlineBufferMessages: Int) throws -> (received: Set<UInt64>, missing: [UInt64], mqtt: [String: Any]?) {
            let subscriberID = "persistent-\(UUID().uuidString.prefix(8))"
            let running = try RunningAgent.start(
                configuration: """
                    {"health_interval":1,"broker":{"offline_buffer":{"max_messages":\(offlineBufferMessages)}},
                     "detectors":{"enabled":false},
                     "services":{"accelerometer":{"rate_hz":50,"qos":1},"gyro":{"enabled":false},
                                 "magnetometer":{"enabled":false},"device-motion":{"enabled":false}}}
                    """,
                brokerOptions: MosquittoBroker.Options(persistence: true),
                subscriber: { broker, topics in
                    try RecordingSubscriber(
                        broker: broker.address, topicFilters: [topics.data(.accelerometer), topics.health],
                        clientID: subscriberID, cleanSession: false)
                })
            defer { running.cleanUp() }
            let topic = running.topics.data(.accelerometer)
            #expect(running.subscriber.waitForCount(on: topic, count: 25), "\(running.agent.log)")
            let beforeOutage = Self.lastSequence(running, topic)
            running.broker.stop()
            Thread.sleep(forTimeInterval: 2)
            try running.broker.restart()
            // Both clients reconnect on their own backoff schedules; wait for 4 s of data after the outage began.
            #expect(Self.waitForSequence(running, topic, atLeast: beforeOutage + 200), "\(running.agent.log)")
            var received = Set(running.objects(on: topic).compactMap { ($0["seq"] as? NSNumber)?.uint64Value })
            var last = try #require(received.max())
            if let lastMissing = (1...last).last(where: { !received.contains($0) }) {
                // A late reconnect can put the end of the gap near the sequence waited for: wait until what
                // the buffer kept (at most 20 here) and the next message have all arrived (QoS 1, in order).
                #expect(Self.waitForSequence(running, topic, atLeast: lastMissing + 21), "\(running.agent.log)")
                received = Set(running.objects(on: topic).compactMap { ($0["seq"] as? NSNumber)?.uint64Value })
                last = try #require(received.max())
            }
            // A report taken after the reconnection, so with every drop counted: one taken in the outage's last
            // moments can be published just after it (its counters then miss the last drops).
            let report = running.subscriber.waitForMessage(on: running.topics.health, timeout: .seconds(5)) { message in
                (RunningAgent.number(RunningAgent.object(message)?["mqtt"] as? [String: Any], "reconnects") ?? 0) >= 1
            }
            #expect(report != nil, "no health report after the reconnection")
            let mqtt = report.flatMap { RunningAgent.object($0.message)?["mqtt"] as? [String: Any] }
            return (received, (1...last).filter { !received.contains($0) }, mqtt)
        }

        @Test func nothingIsLostAcrossABrokerOutage() throws {
            let (_, missing, mqtt) = try outage(offlineBufferMessages: 10_000)
            #expect(missing.isEmpty, "lost across the outage: \(missing.count) messages, first \(missing.prefix(5))")
            #expect(RunningAgent.number(mqtt, "reconnects") == 1)
            #expect(RunningAgent.number(mqtt, "dropped_from_buffer") == 0)
        }

        @Test func aFullOfflineBufferDropsTheOldestAndCountsThem() throws {
            let (received, missing, mqtt) = try outage(offlineBufferMessages: 20)
            let dropped = try #require(RunningAgent.number(mqtt, "dropped_from_buffer"))
            let counters = ["publish_errors", "dropped_while_disconnected", "reconnects", "queued"].map { "\($0) \(RunningAgent.number(mqtt, $0) ?? -1)" }
            #expect(Double(missing.count) == dropped, "the gap is exactly what the buffer dropped: \(missing.first ?? 0)…\(missing.last ?? 0), \(counters)")
            #expect(dropped >= 50, "2 s at 50 Hz into a 20-message buffer: \(dropped)")
            if let first = missing.first, let lastMissing = missing.last {
                #expect(lastMissing - first + 1 == UInt64(missing.count), "one gap: the oldest messages of the outage")
                #expect((lastMissing + 1...lastMissing + 20).allSatisfy(received.contains), "the newest 20 were kept")
            }
        }

        @Test func credentialsComeFromTheEnvironmentAndAreNeverLogged() throws {
            let secret = "s3cret-\(UUID().uuidString.prefix(6))"
            let running = try RunningAgent.start(
                configuration: #"{"broker":{"username":"agent","password_env":"BOARD_SECRET"}}"#,
                brokerOptions: MosquittoBroker.Options(allowAnonymous: false, users: ["agent": secret, "watcher": "w"]),
                environment: ["BOARD_SECRET": secret],
                subscriber: { broker, topics in
                    try RecordingSubscriber(
                        broker: broker.address, topicFilters: ["\(topics.base)/#"], username: "watcher", password: MQTTPassword("w"))
                })
            defer { running.cleanUp() }
            #expect(running.subscriber.waitForMessage(on: running.topics.status) { $0.payloadString == "online" } != nil, "\(running.agent.log)")
            #expect(!running.agent.log.contains(secret))

            // MOTION_AGENT_PASSWORD overrides the configured source; a wrong one is refused by the broker.
            let refused = try AgentProcess(
                arguments: ["--config", running.configurationURL.path, "--broker", running.broker.url, "--id", "intruder"],
                environment: ["MOTION_AGENT_PASSWORD": "wrong-password"])
            #expect(running.broker.waitForLog(containing: "not authorised"), "\(running.broker.log())")
            #expect(!refused.log.contains("wrong-password"))
            refused.send(SIGTERM)
            #expect(refused.waitForExit(timeout: .seconds(3)) == 0, "\(refused.log)")

            let missing = try AgentProcess.run("motion-agent", arguments: ["--config", running.configurationURL.path, "--check-config"],
                                               timeout: .seconds(10))
            #expect(missing.status == 78, "BOARD_SECRET is not set for this one")
            #expect(missing.log.contains("broker.password_env"), "\(missing.log)")
        }

        @Test func tlsWithTheBrokersCertificateAuthority() throws {
            let broker = try MosquittoBroker(options: MosquittoBroker.Options(tls: .serverCertificate))
            let certificates = try #require(broker.certificates)
            let configuration = FileManager.default.temporaryDirectory.appendingPathComponent("tls-\(UUID()).json")
            try Data(#"{"device_id":"tls-board","broker":{"tls":{"ca_file":"\#(certificates.caCertificatePath)"}}}"#.utf8).write(to: configuration)
            defer { try? FileManager.default.removeItem(at: configuration) }
            let watcher = try RecordingSubscriber(
                broker: broker.address, topicFilters: ["motion/tls-board/status"],
                tls: MQTTTLSConfiguration(caFile: certificates.caCertificatePath))
            let agent = try AgentProcess(arguments: ["--config", configuration.path, "--broker", broker.url])
            #expect(watcher.waitForMessage(on: "motion/tls-board/status") { $0.payloadString == "online" } != nil, "\(agent.log)")
            agent.send(SIGTERM)
            #expect(agent.waitForExit(timeout: .seconds(3)) == 0, "\(agent.log)")
            #expect(watcher.waitForMessage(on: "motion/tls-board/status") { $0.payloadString == "offline" } != nil)
        }

        @Test func anMQTT311OnlyBrokerIsServedByFallingBack() throws {
            let proxy = Mutex<MQTTVersionFilteringProxy?>(nil)
            let running = try RunningAgent.start(
                configuration: #"{"health_interval":1}"#,
                agentBrokerURL: { broker in
                    let filtering = try MQTTVersionFilteringProxy(upstreamPort: broker.port)
                    proxy.withLock { $0 = filtering }
                    return "mqtt://127.0.0.1:\(filtering.port)"
                })
            defer { running.cleanUp() }
            #expect(running.subscriber.waitForMessage(on: running.topics.status) { $0.payloadString == "online" } != nil, "\(running.agent.log)")
            #expect(running.subscriber.waitForCount(on: running.topics.data(.gyro), count: 5))
            #expect(running.subscriber.waitForCount(on: running.topics.health, count: 1, timeout: .seconds(3)))
            let mqtt = running.objects(on: running.topics.health).last?["mqtt"] as? [String: Any]
            #expect(mqtt?["protocol"] as? String == "3.1.1")
            #expect((proxy.withLock { $0?.refusedConnections } ?? 0) >= 1)
            // Control still works over 3.1.1 (answers go to {base}/error, the only place 3.1.1 allows).
            try running.send("stop", to: .gyro)
            #expect(running.subscriber.waitForMessage(on: running.topics.status(.gyro)) { RunningAgent.object($0)?["active"] as? Bool == false } != nil)
            proxy.withLock { $0?.stop() }
        }
    }
}
