import AgentTestSupport
import Foundation
import MQTT
import MotionContract
import MotionTestSupport
import Testing

@testable import MotionAgent

/// Deploy/mosquitto/edge.conf with two real brokers on loopback: the real agent publishes to an edge
/// broker configured by that file, bridged over TLS (client certificate) to a central broker; a
/// subscriber and motionctl work on the centre only.
@Suite(.serialized) struct EdgeBridgeTests {
    static let edgeConfiguration = Repository.schemas.deletingLastPathComponent()
        .appendingPathComponent("Deploy/mosquitto/edge.conf")

    /// The two brokers and the agent between them.
    struct Site {
        let central: MosquittoBroker
        /// The central broker's plain listener for the test's clients (the bridge uses its TLS one).
        let centralClientPort: Int
        let edge: MosquittoBroker
        let agent: AgentProcess
        let deviceID: String
        let topics: TopicLayout
        let configurationURL: URL

        var centralClientURL: String { "mqtt://127.0.0.1:\(centralClientPort)" }
        var centralClientAddress: MQTTBrokerAddress { MQTTBrokerAddress(host: "127.0.0.1", port: centralClientPort) }

        /// A central broker as Deploy/DEPLOYMENT.md asks for one (saved after every change), the edge
        /// broker from edge.conf bridged to it, and the agent on the edge with `services`.
        static func start(services: String) throws -> Site {
            let clientPort = try MosquittoBroker.freeLoopbackPort()
            let central = try MosquittoBroker(options: .init(
                persistence: true, unlimitedQueues: false,
                extraConfiguration: ["autosave_on_changes true", "autosave_interval 1", "max_queued_messages 100000",
                                     "listener \(clientPort) 127.0.0.1"],
                tls: .requireClientCertificate))
            let edge = try MosquittoBroker(options: .init(
                persistence: true, unlimitedQueues: false,
                extraConfiguration: try EdgeBridgeTests.bridgeLines(centralPort: central.port, certificates: central.certificates!)))
            let deviceID = "edge-\(UUID().uuidString.prefix(8).lowercased())"
            let configurationURL = FileManager.default.temporaryDirectory.appendingPathComponent("\(deviceID).json")
            try Data(#"{"health_interval": 2, "services": \#(services)}"#.utf8).write(to: configurationURL)
            let agent = try AgentProcess(arguments: [
                "--config", configurationURL.path, "--broker", edge.url, "--id", deviceID, "--device", "sim:rate=100",
            ])
            return Site(
                central: central, centralClientPort: clientPort, edge: edge, agent: agent, deviceID: deviceID,
                topics: TopicLayout(prefix: "motion", deviceID: deviceID), configurationURL: configurationURL)
        }

        func cleanUp() {
            agent.send(SIGTERM)
            _ = agent.waitForExit(timeout: .seconds(5))
            try? FileManager.default.removeItem(at: configurationURL)
        }

        /// What went wrong, for a failed expectation.
        var diagnostics: String {
            "agent: \(agent.log.suffix(1500))\nedge: \(edge.log().suffix(1500))\ncentral: \(central.log().suffix(1500))"
        }
    }

    /// edge.conf as the edge broker's configuration: its own lines, except those the test broker writes
    /// itself (listener, persistence location, anonymous access, TCP_NODELAY), with the central broker's
    /// address and the test CA and client certificate put in place of the deployment's.
    static func bridgeLines(centralPort: Int, certificates: TestCertificates) throws -> [String] {
        let replaced: [String: String] = [
            "address": "127.0.0.1:\(centralPort)", "bridge_cafile": certificates.caCertificatePath,
            "bridge_certfile": certificates.clientCertificatePath, "bridge_keyfile": certificates.clientKeyPath,
        ]
        let writtenByTheTestBroker: Set<String> = ["listener", "allow_anonymous", "set_tcp_nodelay", "persistence"]
        var lines: [String] = []
        for line in try String(contentsOf: edgeConfiguration, encoding: .utf8).split(separator: "\n") {
            let text = line.trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty, !text.hasPrefix("#") else { continue }
            let key = String(text.prefix { $0 != " " })
            if writtenByTheTestBroker.contains(key) { continue }
            lines.append(replaced[key].map { "\(key) \($0)" } ?? text.replacingOccurrences(of: "EDGE-NAME", with: "test"))
        }
        // The rewrite must have caught every deployment path and host (else edge.conf changed shape).
        let leftovers = lines.filter { $0.contains("/etc/") || $0.contains("example.org") }
        #expect(leftovers.isEmpty, "edge.conf names paths or hosts the test does not replace: \(leftovers)")
        #expect(lines.contains("connection central") && lines.contains("topic motion/# out 1"), "\(lines)")
        return lines
    }

    @Test func dataAvailabilityAndCommandsCrossTheBridge() throws {
        let site = try Site.start(services: #"{"gyro": {"rate_hz": 10}, "accelerometer": {"rate_hz": 5}, "magnetometer": {"enabled": false}, "device-motion": {"enabled": false}}"#)
        defer { site.cleanUp() }
        let subscriber = try RecordingSubscriber(broker: site.centralClientAddress, topicFilters: ["\(site.topics.base)/#"])

        // Out: the retained status (kept by the centre), health and data published at the edge.
        let online = subscriber.waitForMessage(on: site.topics.status, timeout: .seconds(20)) { String(decoding: $0.payload, as: UTF8.self).contains("online") }
        #expect(online != nil, "\(site.diagnostics)")
        #expect(subscriber.waitForCount(on: site.topics.data(.gyro), count: 5, timeout: .seconds(10)), "\(site.diagnostics)")
        #expect(subscriber.waitForCount(on: site.topics.health, count: 1, timeout: .seconds(10)))
        let late = try RecordingSubscriber(broker: site.centralClientAddress, topicFilters: [site.topics.status])
        #expect(late.waitForCount(on: site.topics.status, count: 1, timeout: .seconds(5)), "the centre keeps the retained status")

        // In, and the answers out again (MQTT 5 response topic and correlation data across the bridge).
        let stop = try AgentProcess.run(
            "motionctl", arguments: ["stop", site.deviceID, "accelerometer", "--timeout", "15", "--broker", site.centralClientURL],
            timeout: .seconds(30))
        #expect(stop.status == 0, "motionctl stop through the bridge: \(stop.output) \(stop.log)\n\(site.diagnostics)")
        let stopped = subscriber.waitForMessage(on: site.topics.status(.accelerometer), timeout: .seconds(10)) {
            String(decoding: $0.payload, as: UTF8.self).contains(#""active":false"#)
        }
        #expect(stopped != nil, "the accelerometer's status says stopped at the centre")
        let configure = try AgentProcess.run(
            "motionctl", arguments: ["config", "set", site.deviceID, "services.gyro.rate_hz=5", "--timeout", "15", "--broker", site.centralClientURL],
            timeout: .seconds(30))
        #expect(configure.status == 0, "motionctl config set through the bridge: \(configure.output) \(configure.log)")
        // A command crosses once: the bridge does not echo the edge's copy back to the centre.
        let commands = subscriber.messages(on: site.topics.control(.accelerometer))
        #expect(commands.count == 1, "\(commands.count) copies of the stop command at the centre")
    }

    /// The central broker stopped dead (SIGSTOP, then SIGKILL: what it had read it had forwarded, and
    /// nothing it acknowledged is lost in its own save window) for 5 s while the agent publishes QoS 1 at
    /// 20 Hz: the messages queue at the edge and arrive after the centre is back, none missing.
    @Test func qosOneMessagesQueuedAtTheEdgeArriveWhenTheCentreReturns() throws {
        let site = try Site.start(services: #"{"gyro": {"rate_hz": 20, "qos": 1}, "accelerometer": {"enabled": false}, "magnetometer": {"enabled": false}, "device-motion": {"enabled": false}}"#)
        defer { site.cleanUp() }
        let gyro = site.topics.data(.gyro)
        let subscriber = try RecordingSubscriber(
            broker: site.centralClientAddress, topicFilters: [gyro], clientID: "historian-\(site.deviceID)", cleanSession: false)
        #expect(subscriber.waitForCount(on: gyro, count: 20, timeout: .seconds(20)), "\(site.diagnostics)")

        let pid = try #require(site.central.processIdentifier)
        kill(pid, SIGSTOP)
        usleep(300_000)
        site.central.kill()
        let lastBeforeOutage = subscriber.sequenceNumbers(on: gyro).max() ?? 0
        sleep(5)  // about 100 messages wait at the edge
        try site.central.restart()

        let outage = 5 * 20
        #expect(eventually(within: .seconds(60)) { (subscriber.sequenceNumbers(on: gyro).max() ?? 0) >= lastBeforeOutage + outage + 20 },
                "the queued messages did not arrive: \(site.diagnostics)")
        let received = Set(subscriber.sequenceNumbers(on: gyro))
        let first = received.min() ?? 0, last = received.max() ?? 0
        let missing = (first...last).filter { !received.contains($0) }
        #expect(missing.isEmpty, "lost across the outage: \(missing.count) of \(last - first + 1) (\(missing.prefix(20)))\n\(site.diagnostics)")
        #expect(last - lastBeforeOutage >= outage, "\(last - lastBeforeOutage) messages after the outage began")
        let connects = site.edge.log().components(separatedBy: "Connecting bridge (step 2) central").count - 1
        #expect(connects >= 2, "the edge connected its bridge \(connects) times, not again after the outage")
    }
}
