import AgentTestSupport
import Foundation
import MQTT
import MotionContract
import MotionTestSupport
import Synchronization
import Testing

extension AgentEndToEndTests {
    /// Issue 29, F1 and F15, against the repository's fleet broker configuration (``FleetBroker``): one device
    /// cannot confirm a command for another, nor take over another's connection.
    @Suite(.serialized, .timeLimit(.minutes(2))) struct FleetForgeryTests {
        /// A compromised device `dev-a` (its own credentials, its own client): it answers its own commands
        /// and, knowing the round's token from its command, forges `{"ok":true}` for `dev-b` every way it can.
        final class ForgingDevice: Sendable {
            /// The client, once made, and the commands it forged answers to.
            private final class Shared: Sendable {
                let client = Mutex<MQTTClient?>(nil)
                let forged = Mutex(0)
            }
            let client: MQTTClient
            private let shared = Shared()
            var forgeries: Int { shared.forged.withLock { $0 } }

            init(_ broker: FleetBroker, answer: String) throws {
                let shared = self.shared
                client = try broker.deviceClient("dev-a", clientID: "motion-agent-dev-a") { command in
                    guard let client = shared.client.withLock({ $0 }), let replies = command.responseTopic, let correlation = command.correlationData else { return }
                    let token = String(decoding: correlation.prefix { $0 != UInt8(ascii: "/") }, as: UTF8.self)
                    let forgedTopic = replies.replacingOccurrences(of: "/dev-a/", with: "/dev-b/")
                    let attempts: [(String, [UInt8])] = [
                        (replies, correlation),  // its own answer, honest
                        (forgedTopic, correlation),  // dev-b's topic, its own secret
                        (forgedTopic, Array("\(token)/dev-b".utf8)),  // dev-b's topic, the old correlation form
                        (replies, Array("\(token)/dev-b".utf8)),  // its own topic, the old correlation form
                        (replies.replacingOccurrences(of: "/dev-a/", with: "/"), Array("\(token)/dev-b".utf8)),  // the round's old topic
                    ]
                    for (topic, data) in attempts {
                        var answer = MQTTMessage(topic: topic, string: answer, qos: .atLeastOnce)
                        answer.correlationData = data
                        _ = try? client.publish(answer)
                    }
                    shared.forged.withLock { $0 += 1 }
                }
                shared.client.withLock { $0 = client }
                try client.subscribe("motion/dev-a/+/set", qos: .atLeastOnce)
                try client.publish(MQTTMessage(topic: "motion/dev-a/status", string: "online", qos: .atLeastOnce, retain: true))
                try client.start()
                guard client.waitUntilConnected(timeout: .seconds(5)) else { throw FleetBroker.Failure(description: "dev-a did not connect") }
                try client.publish(MQTTMessage(topic: "motion/dev-a/status", string: "online", qos: .atLeastOnce, retain: true))
            }

            deinit { client.shutdown(timeout: .seconds(1)) }
        }

        /// F1: with dev-b stopped (SIGSTOP, its status still `online`), `motionctl stop 'dev-*' gyro` printed
        /// `dev-b ok` and exited 0 on dev-a's forged answer; so did `config set` on `{"ok":true,"version":42}`.
        @Test("a device cannot confirm a command or a configuration document for another")
        func aForgedConfirmationIsNotTaken() throws {
            let broker = try FleetBroker(devices: ["dev-a", "dev-b"])
            let victim = try AgentProcess(arguments: ["--config", try broker.agentConfiguration("dev-b")])
            defer {
                victim.send(SIGCONT)
                victim.send(SIGTERM)
                _ = victim.waitForExit(timeout: .seconds(5))
            }
            let watcher = try RecordingSubscriber(
                broker: MQTTBrokerAddress(host: "127.0.0.1", port: broker.operatorPort), topicFilters: ["motion/+/status", "motion/+/gyro/status"],
                username: "operator", password: try broker.password("operator"), tls: broker.tls)
            #expect(watcher.waitForMessage(on: "motion/dev-b/gyro/status", timeout: .seconds(10)) != nil, "dev-b announced: \(victim.log)")
            victim.send(SIGSTOP)

            for (command, answer) in [
                (["stop", "dev-*", "gyro"], #"{"ok":true}"#),
                (["config", "set", "dev-*", "health_interval=30"], #"{"ok":true,"version":42}"#),
            ] {
                let attacker = try ForgingDevice(broker, answer: answer)
                let run = try AgentProcess.run(
                    "motionctl", arguments: command + ["--timeout", "3", "--json"] + broker.operatorOptions(), timeout: .seconds(30))
                let results = ((try? JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])?["results"] as? [[String: Any]]) ?? []
                let byDevice = Dictionary(uniqueKeysWithValues: results.map { ($0["device"] as? String ?? "?", $0["result"] as? String ?? "?") })
                #expect(attacker.forgeries == 1, "dev-a got the command and forged: \(run.log)")
                #expect(byDevice == ["dev-a": "ok", "dev-b": "no answer"], "\(command): \(run.output) \(run.log)")
                #expect(run.status == 1 && run.log.contains("did not confirm: dev-b"), "\(command): \(run.log)")
            }
            #expect(broker.log().contains("Denied PUBLISH from dev-a") , "the broker refused the forgeries on dev-b's topic")
        }

        /// F15: a device connecting with another's client id disconnected it, and published its `offline` will;
        /// looping kept the victim flapping.
        @Test("a device cannot take over another's connection by its client id")
        func aClientIdTakeoverIsRefused() throws {
            let broker = try FleetBroker(devices: ["dev-a", "dev-b"])
            let agent = try AgentProcess(arguments: ["--config", try broker.agentConfiguration("dev-a", extra: ["health_interval": 1])])
            defer {
                agent.send(SIGTERM)
                _ = agent.waitForExit(timeout: .seconds(5))
            }
            let watcher = try RecordingSubscriber(
                broker: MQTTBrokerAddress(host: "127.0.0.1", port: broker.operatorPort), topicFilters: ["motion/dev-a/status", "motion/dev-a/gyro"],
                username: "operator", password: try broker.password("operator"), tls: broker.tls)
            #expect(watcher.waitForMessage(on: "motion/dev-a/status", timeout: .seconds(10)) { $0.payloadString == "online" } != nil, "\(agent.log)")
            watcher.clear()
            for round in 0..<6 {
                let intruder = try broker.deviceClient("dev-b", clientID: round % 2 == 0 ? "motion-agent-dev-a" : "dev-a")
                try intruder.start()
                #expect(intruder.waitUntilConnected(timeout: .seconds(5)), "the intruder connects, as itself")
                usleep(200_000)
                intruder.shutdown(timeout: .seconds(1))
            }
            let before = watcher.messages(on: "motion/dev-a/gyro").count
            #expect(watcher.waitForCount(on: "motion/dev-a/gyro", count: before + 5), "dev-a still publishes")
            #expect(!watcher.messages(on: "motion/dev-a/status").contains { $0.payloadString == "offline" }, "dev-a's will was not published")
            #expect(!agent.log.contains("disconnected") && !agent.log.contains("reconnect"), "the agent never lost its connection: \(agent.log)")
            #expect(broker.log().contains("as dev-b") && !broker.log().contains("already connected"), "the intruder was dev-b, not dev-a")
        }
    }
}
