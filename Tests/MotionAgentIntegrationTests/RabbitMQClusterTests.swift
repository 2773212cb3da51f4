import AgentTestSupport
import Foundation
import MQTT
import MotionContract
import MotionTestSupport
import Testing

@testable import MotionAgent

/// The agent on a two-node RabbitMQ cluster (Debian's rabbitmq-server 3.10 with its MQTT plugin, started
/// by the test on loopback), with both nodes in `broker.urls`: what holds and what RabbitMQ does
/// differently from mosquitto (docs/DEPLOYMENT.md, "A clustered broker: RabbitMQ").
@Suite(.serialized, .enabled(if: RabbitMQCluster.isInstalled)) struct RabbitMQClusterTests {
    static func text(_ message: MQTTMessage) -> String { String(decoding: message.payload, as: UTF8.self) }


    @Test func theAgentFailsOverToTheOtherNodeAndKeepsItsContractThere() throws {
        let cluster = try RabbitMQCluster(nodes: 2)
        let (first, second) = (cluster.nodes[0], cluster.nodes[1])
        let deviceID = "rmq-\(UUID().uuidString.prefix(8).lowercased())"
        let topics = TopicLayout(prefix: "motion", deviceID: deviceID)
        let configurationURL = FileManager.default.temporaryDirectory.appendingPathComponent("\(deviceID).json")
        // The default protocol (MQTT 5): RabbitMQ 3.10 closes such a connection, and the agent falls back.
        try Data("""
            {"health_interval": 2, "broker": {"urls": ["\(first.url)", "\(second.url)"], "keepalive": 10},
             "services": {"gyro": {"rate_hz": 10, "qos": 1}, "accelerometer": {"enabled": false},
                          "magnetometer": {"enabled": false}, "device-motion": {"rate_hz": 5}}}
            """.utf8).write(to: configurationURL)
        defer { try? FileManager.default.removeItem(at: configurationURL) }
        // One watcher on each node, subscribed before the agent starts: whichever node the agent uses, the
        // watcher on the other one sees everything, before the fail-over by the cluster's routing.
        let watchers = try cluster.nodes.map { node in
            try RecordingSubscriber(
                broker: MQTTBrokerAddress(host: "127.0.0.1", port: node.mqttPort), topicFilters: ["\(topics.base)/#"], timeout: .seconds(30))
        }
        let agent = try AgentProcess(arguments: ["--config", configurationURL.path, "--id", deviceID, "--device", "sim:rate=100"])
        defer { agent.send(SIGKILL) }
        var diagnostics: String { "agent: \(agent.log.suffix(2000))\nnode 1: \(cluster.log(0).suffix(1500))\nnode 2: \(cluster.log(1).suffix(1500))" }

        // Subscribers on both nodes see it live wherever it connected (routing is cluster-wide).
        for watcher in watchers {
            #expect(watcher.waitForMessage(on: topics.status, timeout: .seconds(40)) { Self.text($0).contains("online") } != nil, "\(diagnostics)")
            #expect(eventually(within: .seconds(10)) { watcher.sequenceNumbers(on: topics.data(.gyro)).count >= 10 }, "\(diagnostics)")
        }
        // Which node: the MQTT 5 attempts (closed by RabbitMQ 3.10) may already have moved it on.
        func connectedNode() -> Int? {
            guard let line = agent.log.split(separator: "\n").last(where: { $0.contains("connected to mqtt://") }) else { return nil }
            return cluster.nodes.firstIndex { line.hasSuffix("connected to \($0.url)") }
        }
        let used = try #require(connectedNode(), "\(diagnostics)")
        let other = 1 - used
        let watcher = watchers[other]

        // The node it is connected to stops: it reconnects to the other and keeps publishing.
        let onlineBefore = watcher.messages(on: topics.status).filter { Self.text($0).contains("online") }.count
        let seqAtStop = watcher.sequenceNumbers(on: topics.data(.gyro)).max() ?? 0
        try cluster.stop(used)
        #expect(eventually(within: .seconds(30)) { connectedNode() == other }, "no fail-over: \(diagnostics)")
        #expect(eventually(within: .seconds(20)) { (watcher.sequenceNumbers(on: topics.data(.gyro)).max() ?? 0) >= seqAtStop + 30 }, "\(diagnostics)")
        let online = watcher.messages(on: topics.status).filter { Self.text($0).contains("online") }.count
        #expect(online > onlineBefore, "announced online again on the other node")
        let received = Set(watcher.sequenceNumbers(on: topics.data(.gyro)))
        let missing = ((received.min() ?? 0)...(received.max() ?? 0)).filter { !received.contains($0) }
        #expect(missing.isEmpty, "QoS 1 gyro messages lost across the fail-over: \(missing)")

        // Retained availability on the node it is connected to now.
        let late = try RecordingSubscriber(
            broker: MQTTBrokerAddress(host: "127.0.0.1", port: cluster.nodes[other].mqttPort), topicFilters: [topics.status], timeout: .seconds(30))
        #expect(late.waitForMessage(on: topics.status, timeout: .seconds(10)) { Self.text($0).contains("online") } != nil,
                "a new subscriber on the node it is connected to gets the retained online")

        // The last will, published by that node when the agent vanishes.
        agent.send(SIGKILL)
        #expect(watcher.waitForMessage(on: topics.status, timeout: .seconds(30)) { Self.text($0).contains("offline") } != nil,
                "the last will reached the subscriber: \(diagnostics)")

        // RabbitMQ 3.10 (Debian 12) keeps retained messages per node: the stopped node, back, still holds the
        // status the agent published there before it stopped, although the agent is gone. This is where the
        // contract does not hold on RabbitMQ 3 (docs/DEPLOYMENT.md). RabbitMQ 4.0 (Debian 13) gives the
        // restarted node the will, `offline`. The test keeps the documentation honest for both.
        try cluster.start(used)
        let stale = try RecordingSubscriber(
            broker: MQTTBrokerAddress(host: "127.0.0.1", port: cluster.nodes[used].mqttPort), topicFilters: [topics.status], timeout: .seconds(30))
        let retainedThere = stale.waitForMessage(on: topics.status, timeout: .seconds(5)).map { Self.text($0.message) }
        let expected = (RabbitMQCluster.majorVersion ?? 3) >= 4 ? "offline" : "online"
        #expect(retainedThere?.contains(expected) == true, "the restarted node's own retained status: \(retainedThere ?? "none"), expected \(expected)")
    }
}
