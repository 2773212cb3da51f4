import AgentTestSupport
import MotionContract
import Foundation
import MQTT
import MotionTestSupport
import Testing

@testable import MotionAgent

extension AgentEndToEndTests {
    /// The fleet's security model against a real mosquitto with the repository's ACL
    /// (`Deploy/mosquitto/motionbridge.acl`) and credentials made by `motionctl provision`: a device's
    /// credentials reach only its own subtree, an operator commands every device, and no secret leaks.
    @Suite(.timeLimit(.minutes(2))) struct FleetSecurityTests {
        static let acl = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Deploy/mosquitto/motionbridge.acl").standardizedFileURL.path

        /// A temporary directory for credentials, with the repository's ACL in it plus one line for the test
        /// subscribers' private sync topic (``RecordingSubscriber/synchronize(timeout:)``), which grants
        /// nothing under `motion/`.
        static func directory() throws -> String {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("fleet-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            try (String(contentsOfFile: acl, encoding: .utf8) + "\npattern readwrite motionbridge-test/sync/%c\n")
                .write(toFile: "\(path)/test.acl", atomically: true, encoding: .utf8)
            return path
        }

        /// Runs `motionctl provision` and returns its standard output.
        static func provision(_ arguments: [String]) throws -> String {
            let run = try AgentProcess.run("motionctl", arguments: ["provision"] + arguments)
            guard run.status == 0 else { throw Failure(description: "motionctl provision \(arguments): \(run.log)") }
            return run.output
        }

        struct Failure: Error, CustomStringConvertible { let description: String }

        /// The agent's configuration for device `id`: the provisioned broker settings pointed at the test's
        /// broker and files (as an operator would edit them when installing the board).
        static func agentConfiguration(_ directory: String, _ id: String, broker: MosquittoBroker, caFile: String) throws -> String {
            let snippet = try String(contentsOfFile: "\(directory)/\(id).agent.json", encoding: .utf8)
            let path = "\(directory)/\(id)-agent.json"
            try snippet
                .replacingOccurrences(of: "mqtt://broker.example:8884", with: broker.url)
                .replacingOccurrences(of: "mqtt://broker.example:8883", with: broker.url)
                .replacingOccurrences(of: "/etc/motion-agent/ca.crt", with: caFile)
                .replacingOccurrences(of: "/etc/motion-agent/", with: "\(directory)/")
                .write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }

        static func client(_ broker: MosquittoBroker, _ id: String, _ configure: (inout MQTTClientConfiguration) -> Void) throws -> MQTTClient {
            var configuration = MQTTClientConfiguration(broker: broker.address, clientID: "\(id)-probe-\(UUID().uuidString.prefix(4))")
            configure(&configuration)
            let client = try MQTTClient(configuration: configuration) { _ in }
            try client.start()
            guard client.waitUntilConnected(timeout: .seconds(5)) else { throw Failure(description: "\(id) did not connect") }
            return client
        }

        /// What another device's credentials try against device `victim`, and what must not happen.
        static func expectConfined(
            intruder: MQTTClient, intruderRecorder: RecordingSubscriber, operator watcher: RecordingSubscriber,
            victim: TopicLayout, agent: AgentProcess
        ) throws {
            // Forged data and status for the victim, and a command to it: dropped by the broker.
            for topic in [victim.data(.gyro), victim.status] {
                _ = try? intruder.publish(MQTTMessage(topic: topic, string: "forged", qos: .atLeastOnce, retain: topic == victim.status))
            }
            _ = try? intruder.publish(MQTTMessage(topic: victim.control(.gyro), string: "stop", qos: .atLeastOnce))
            Thread.sleep(forTimeInterval: 1)
            #expect(!watcher.allRecords().contains { $0.message.payloadString == "forged" }, "a forged message reached the operator")
            #expect(watcher.messages(on: victim.status(.gyro)).allSatisfy { RunningAgent.object($0)?["active"] as? Bool != false },
                    "another device stopped the victim's gyro")
            let late = watcher.messages(on: victim.data(.gyro)).count
            #expect(watcher.waitForCount(on: victim.data(.gyro), count: late + 5), "the victim's gyro still publishes")
            // The operator commands the victim; the intruder, subscribed to the victim's commands, sees nothing.
            var command = MQTTMessage(topic: victim.control(.accelerometer), string: #"{"interval":0.1}"#, qos: .atLeastOnce)
            command.responseTopic = "motionctl/operator/replies/\(victim.base.split(separator: "/").last!)/1"
            command.correlationData = [7]
            try watcher.client.publish(command)
            let answer = watcher.waitForMessage(on: command.responseTopic!, timeout: .seconds(5))
            #expect(answer.flatMap { RunningAgent.object($0.message)?["ok"] as? Bool } == true, "the operator's command was answered: \(agent.log)")
            #expect(answer?.message.correlationData == [7])
            #expect(intruderRecorder.messages(on: victim.control(.accelerometer)).isEmpty, "the intruder read the victim's command")
        }

        @Test func passwordsAndThePatternACLKeepEachDeviceToItsOwnSubtree() throws {
            let directory = try Self.directory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            var provisionOutput = ""
            for id in ["dev-a", "dev-b", "operator"] {
                provisionOutput += try Self.provision([id, "--password", "--output", directory] + (id == "operator" ? ["--operator"] : []))
            }
            let lines = try ["dev-a", "dev-b", "operator"].map { try String(contentsOfFile: "\(directory)/\($0).passwd", encoding: .utf8) }
            try lines.joined().write(toFile: "\(directory)/passwd", atomically: true, encoding: .utf8)
            // A queue bound as in fleet.conf: with max_queued_messages 0, mosquitto 2.0.11 disconnects a client
            // whose QoS 1 publish it denied (handle__publish compares the queue length with 0 and says
            // "quota exceeded"), which would hide what the ACL does.
            let broker = try MosquittoBroker(options: .init(
                unlimitedQueues: false, allowAnonymous: false,
                extraConfiguration: ["password_file \(directory)/passwd", "acl_file \(directory)/test.acl"], tls: .serverCertificate))
            let ca = try #require(broker.certificates).caCertificatePath
            func password(_ id: String) throws -> String {
                try String(contentsOfFile: "\(directory)/\(id).password", encoding: .utf8).trimmingCharacters(in: .newlines)
            }
            let watcher = try RecordingSubscriber(
                broker: broker.address, topicFilters: ["motion/#", "motionctl/operator/replies/#"], clientID: "operator-watch",
                username: "operator", password: MQTTPassword(try password("operator")), tls: MQTTTLSConfiguration(caFile: ca))
            let agent = try AgentProcess(arguments: ["--config", try Self.agentConfiguration(directory, "dev-a", broker: broker, caFile: ca)])
            let victim = TopicLayout(prefix: "motion", deviceID: "dev-a")
            #expect(watcher.waitForMessage(on: victim.status, timeout: .seconds(10)) { $0.payloadString == "online" } != nil, "\(agent.log)")
            #expect(watcher.waitForCount(on: victim.data(.gyro), count: 5), "\(agent.log)")

            let intruder = try Self.client(broker, "dev-b") { configuration in
                configuration.username = "dev-b"
                configuration.password = try? MQTTPassword(contentsOfFile: "\(directory)/dev-b.password")
                configuration.tls = MQTTTLSConfiguration(caFile: ca)
            }
            let intruderRecorder = try RecordingSubscriber(
                broker: broker.address, topicFilters: [victim.allControlTopics, "#"], clientID: "dev-b-reader",
                username: "dev-b", password: MQTTPassword(try password("dev-b")), tls: MQTTTLSConfiguration(caFile: ca))
            try Self.expectConfined(intruder: intruder, intruderRecorder: intruderRecorder, operator: watcher, victim: victim, agent: agent)
            #expect(!intruderRecorder.allRecords().contains { $0.message.topic.hasPrefix("motion/dev-a/") }, "dev-b read dev-a's topics")
            #expect(intruder.statistics.reconnects == 0 && intruder.statistics.publishErrors == 3, "denied, not disconnected: \(intruder.statistics)")
            // Its own subtree is open to it.
            try intruder.publish(MQTTMessage(topic: "motion/dev-b/gyro", string: "mine", qos: .atLeastOnce))
            #expect(watcher.waitForMessage(on: "motion/dev-b/gyro") != nil)

            // The real motionctl as the operator (user name, password file, TLS): it lists the device and
            // its confirmed command crosses the ACL both ways (the answer on motionctl/operator/replies/…).
            let credentials = ["--broker", broker.url, "--username", "operator", "--password-file", "\(directory)/operator.password", "--ca-file", ca]
            let listing = try AgentProcess.run("motionctl", arguments: ["devices", "dev-a"] + credentials + ["--wait", "1"])
            #expect(listing.status == 0 && listing.output.split(separator: "\n").contains { $0.hasPrefix("dev-a ") && $0.contains(" online ") }, "\(listing.output) \(listing.log)")
            let stop = try AgentProcess.run("motionctl", arguments: ["stop", "dev-a", "magnetometer", "--timeout", "10"] + credentials, timeout: .seconds(30))
            #expect(stop.status == 0, "motionctl stop as the operator: \(stop.output) \(stop.log)")
            #expect(!(listing.log + stop.log + listing.output + stop.output).contains(try password("operator")), "motionctl printed the password")

            // No secret in what the agent logs or publishes, nor in what provisioning printed.
            let secrets = try ["dev-a", "dev-b", "operator"].map(password)
            watcher.clear()
            #expect(watcher.waitForMessage(on: victim.health, timeout: .seconds(12)) != nil, "a health report")
            let published = watcher.allRecords().map(\.message.payloadString).joined() + (watcher.messages(on: victim.info).last?.payloadString ?? "")
            let retainedInfo = try RecordingSubscriber(
                broker: broker.address, topicFilters: [victim.info], username: "operator", password: MQTTPassword(try password("operator")),
                tls: MQTTTLSConfiguration(caFile: ca)).waitForMessage(on: victim.info)?.message.payloadString ?? ""
            #expect(!retainedInfo.isEmpty)
            for secret in secrets {
                for (name, text) in [("agent log", agent.log), ("published payloads", published + retainedInfo), ("provision output", provisionOutput)] {
                    #expect(!text.contains(secret), "a password appears in the \(name)")
                }
            }
            agent.send(SIGTERM)
            #expect(agent.waitForExit(timeout: .seconds(5)) == 0, "\(agent.log)")
        }

        @Test func clientCertificatesNameTheDeviceAndBadTLSFailClearly() throws {
            let directory = try Self.directory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let broker = try MosquittoBroker(options: .init(
                unlimitedQueues: false, allowAnonymous: false,
                extraConfiguration: ["use_identity_as_username true", "acl_file \(directory)/test.acl"], tls: .requireClientCertificate))
            let certificates = try #require(broker.certificates)
            for id in ["dev-a", "dev-b", "operator"] {
                _ = try Self.provision([id, "--ca-cert", certificates.caCertificatePath, "--ca-key", certificates.caKeyPath, "--output", directory]
                    + (id == "operator" ? ["--operator"] : []))
            }
            func tls(_ id: String) -> MQTTTLSConfiguration {
                MQTTTLSConfiguration(caFile: certificates.caCertificatePath, certificateFile: "\(directory)/\(id).crt", keyFile: "\(directory)/\(id).key")
            }
            let watcher = try RecordingSubscriber(
                broker: broker.address, topicFilters: ["motion/#", "motionctl/operator/replies/#"], clientID: "operator-watch", tls: tls("operator"))
            let configuration = try Self.agentConfiguration(directory, "dev-a", broker: broker, caFile: certificates.caCertificatePath)
            let agent = try AgentProcess(arguments: ["--config", configuration])
            let victim = TopicLayout(prefix: "motion", deviceID: "dev-a")
            #expect(watcher.waitForMessage(on: victim.status, timeout: .seconds(10)) { $0.payloadString == "online" } != nil, "\(agent.log)")
            #expect(broker.waitForLog(containing: "as motion-agent-dev-a (p5, c1, k30, u'dev-a')"), "the certificate's name is the user name")
            let intruder = try Self.client(broker, "dev-b") { $0.tls = tls("dev-b") }
            let intruderRecorder = try RecordingSubscriber(
                broker: broker.address, topicFilters: [victim.allControlTopics], clientID: "dev-b-reader", tls: tls("dev-b"))
            try Self.expectConfined(intruder: intruder, intruderRecorder: intruderRecorder, operator: watcher, victim: victim, agent: agent)
            agent.send(SIGTERM)
            #expect(agent.waitForExit(timeout: .seconds(5)) == 0)

            // A wrong CA and a missing client certificate: the agent says which, and keeps trying.
            let document = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: configuration))) as? [String: Any])
            func edited(_ change: (inout [String: Any]) -> Void) throws -> Data {
                var broker = document["broker"] as? [String: Any] ?? [:]
                var tls = broker["tls"] as? [String: Any] ?? [:]
                change(&tls)
                broker["tls"] = tls
                var copy = document
                copy["broker"] = broker
                return try JSONSerialization.data(withJSONObject: copy)
            }
            for (name, edited, phrase) in [
                ("wrong CA", try edited { $0["ca_file"] = certificates.otherCACertificatePath }, "certificate verify failed"),
                ("no client certificate", try edited { $0["certificate_file"] = nil; $0["key_file"] = nil }, "client certificate"),
            ] {
                let path = "\(directory)/\(UUID().uuidString).json"
                try edited.write(to: URL(fileURLWithPath: path))
                let failing = try AgentProcess(arguments: ["--config", path])
                #expect(eventually(within: .seconds(5)) { failing.log.contains(phrase) }, "\(name): \(failing.log)")
                failing.send(SIGTERM)
                #expect(failing.waitForExit(timeout: .seconds(5)) == 0, "\(name): \(failing.log)")
            }
        }
    }
}
