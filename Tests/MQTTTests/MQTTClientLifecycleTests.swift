import Foundation
import MQTT
import MotionTestSupport
import Synchronization
import Testing

/// Configuration checks, last will, reconnecting and shutting down, against a real mosquitto broker.
@Suite("MQTTClient lifecycle")
struct MQTTClientLifecycleTests {
    private func configuration(_ broker: MosquittoBroker, _ clientID: String, will: MQTTMessage? = nil)
        -> MQTTClientConfiguration
    {
        MQTTClientConfiguration(broker: broker.address, clientID: clientID, will: will, reconnectDelay: 1...1)
    }

    @Test("invalid configurations are rejected before connecting, naming the field")
    func invalidConfigurationRejected() throws {
        let address = MQTTBrokerAddress(host: "127.0.0.1", port: 1883)
        let cases: [(MQTTClientConfiguration, String)] = [
            (.init(broker: address, clientID: "k", keepAlive: 4), "keepAlive: must be 5...65535 s, got 4 s"),
            (.init(broker: address, clientID: "k", keepAlive: 0), "got 0 s"),
            (.init(broker: address, clientID: "", cleanSession: false), "clientID"),
            (.init(broker: address, clientID: "r", reconnectDelay: 0...5), "reconnectDelay"),
            (.init(broker: MQTTBrokerAddress(host: "h", port: 0), clientID: "p"), "broker.port"),
            (.init(broker: address, clientID: "w", will: MQTTMessage(topic: "a/#", string: "x")), "will.topic"),
        ]
        for (configuration, fragment) in cases {
            do {
                _ = try MQTTClient(configuration: configuration) { _ in }
                Issue.record("accepted a configuration that should fail with \(fragment)")
            } catch {
                #expect(error.kind == .invalidConfiguration)
                #expect(error.description.contains(fragment), "\(error)")
            }
        }
        // The boundary value is accepted.
        _ = try MQTTClient(configuration: .init(broker: address, clientID: "k5", keepAlive: 5)) { _ in }
    }

    @Test("the broker publishes a retained last will when a client dies (SIGKILL of mosquitto_sub)")
    func willDeliveredWhenClientDies() throws {
        let broker = try MosquittoBroker()
        // posix_spawn rather than Foundation's Process, which races with sockets opened by other tests.
        let child = try CommandLineTool.spawn("/usr/bin/mosquitto_sub", [
            "-h", "127.0.0.1", "-p", String(broker.port), "-i", "doomed", "-t", "ignored",
            "--will-topic", "fleet/doomed/status", "--will-payload", "offline", "--will-retain", "--will-qos", "1",
        ])
        var childStatus: Int32 = 0
        defer { if waitpid(child, &childStatus, WNOHANG) == 0 { kill(child, SIGKILL); waitpid(child, &childStatus, 0) } }
        #expect(broker.waitForLog(containing: "as doomed ("), "\(broker.log())")

        let watcher = try RecordingSubscriber(broker: broker.address, topicFilters: ["fleet/+/status"])
        #expect(watcher.messages(on: "fleet/doomed/status").isEmpty)
        kill(child, SIGKILL)
        waitpid(child, &childStatus, 0)

        let live = watcher.waitForMessage(on: "fleet/doomed/status")?.message
        #expect(live?.payloadString == "offline")
        #expect(live?.qos == .atLeastOnce)
        // And it is retained: a subscriber arriving afterwards gets it from the broker's store.
        let late = try RecordingSubscriber(broker: broker.address, topicFilters: ["fleet/doomed/status"])
        let stored = late.waitForMessage(on: "fleet/doomed/status")?.message
        #expect(stored == MQTTMessage(topic: "fleet/doomed/status", string: "offline", qos: .atLeastOnce, retain: true))
    }

    @Test("our clean shutdown sends DISCONNECT, so our own will is not published")
    func cleanShutdownDoesNotPublishWill() throws {
        let broker = try MosquittoBroker()
        let watcher = try RecordingSubscriber(broker: broker.address, topicFilters: ["fleet/+/status"])
        let will = MQTTMessage(topic: "fleet/agent/status", string: "offline", qos: .atLeastOnce, retain: true)
        let client = try MQTTClient(configuration: configuration(broker, "agent", will: will)) { _ in }
        try client.start()
        #expect(client.waitUntilConnected(timeout: .seconds(5)))
        client.shutdown(timeout: .seconds(2))

        // mosquitto logs "disconnected." for a DISCONNECT and "closed its connection." otherwise.
        #expect(broker.waitForLog(containing: "Client agent disconnected."), "\(broker.log())")
        #expect(!broker.log().contains("Client agent closed its connection"))
        try watcher.synchronize()  // a will would have been delivered before this round trip ends
        #expect(watcher.messages(on: "fleet/agent/status").isEmpty)
        let late = try RecordingSubscriber(broker: broker.address, topicFilters: ["fleet/agent/status"])
        try late.synchronize()
        #expect(late.messages(on: "fleet/agent/status").isEmpty)
    }

    @Test("releasing the last reference also disconnects cleanly")
    func deinitShutsDownCleanly() throws {
        let broker = try MosquittoBroker()
        do {
            let client = try MQTTClient(configuration: configuration(broker, "dropped")) { _ in }
            try client.start()
            #expect(client.waitUntilConnected(timeout: .seconds(5)))
        }
        #expect(broker.waitForLog(containing: "Client dropped disconnected."), "\(broker.log())")
    }

    @Test("started while the broker is down, the client connects by itself once the broker is up")
    func connectsWhenBrokerComesUp() throws {
        let broker = try MosquittoBroker()
        broker.stop()
        let events = EventLog()
        let client = try MQTTClient(configuration: configuration(broker, "early-bird"), events: events.handler)
        try client.start()
        #expect(events.wait(for: "disconnected"))  // the first attempt fails and is reported
        #expect(!client.isConnected)
        try broker.restart()
        #expect(client.waitUntilConnected(timeout: .seconds(5)))
        #expect(events.wait(for: "connected"))  // the event follows the state change
        let kinds = events.kinds
        #expect(kinds.first == "disconnected" && kinds.last == "connected", "\(kinds)")
        client.shutdown(timeout: .seconds(2))
    }

    @Test("after a broker restart the client reports disconnected, reconnects, and resubscribes")
    func reconnectsAfterBrokerRestart() throws {
        let broker = try MosquittoBroker()
        let events = EventLog()
        let client = try MQTTClient(configuration: configuration(broker, "survivor"), events: events.handler)
        try client.subscribe("after/restart", qos: .atLeastOnce)
        try client.start()
        #expect(client.waitUntilConnected(timeout: .seconds(5)))

        broker.stop()
        #expect(events.wait(for: "disconnected"))
        #expect(!client.isConnected)
        guard case .disconnected(let reasonCode, let reason)? = events.all.last(where: { EventLog.kind($0) == "disconnected" }) else {
            Issue.record("no disconnected event: \(events.kinds)")
            return
        }
        #expect(reasonCode != 0, "unexpected disconnect: \(reason)")

        try broker.restart()
        #expect(events.wait(for: "connected", count: 2))
        #expect(client.isConnected)
        let kinds = events.kinds
        #expect(kinds.first == "connected")
        #expect(kinds.firstIndex(of: "disconnected")! < kinds.lastIndex(of: "connected")!)

        // The subscription was re-made on the new broker process (which has no memory of it).
        let publisher = try MQTTClient(configuration: configuration(broker, "restart-publisher")) { _ in }
        try publisher.start()
        #expect(publisher.waitUntilConnected(timeout: .seconds(5)))
        try publisher.publish(MQTTMessage(topic: "after/restart", string: "still here", qos: .atLeastOnce))
        #expect(events.wait { $0.contains { if case .message(let m) = $0 { m.payloadString == "still here" } else { false } } })
        publisher.shutdown(timeout: .seconds(2))
        client.shutdown(timeout: .seconds(2))
    }

    @Test("shutdown is idempotent, delivers no event afterwards, and later calls throw")
    func shutdownIsFinal() throws {
        let broker = try MosquittoBroker()
        let events = EventLog()
        let client = try MQTTClient(configuration: configuration(broker, "finisher"), events: events.handler)
        try client.subscribe("late/#", qos: .atLeastOnce)
        try client.start()
        #expect(client.waitUntilConnected(timeout: .seconds(5)))

        client.shutdown(timeout: .seconds(2))
        let countAtShutdown = events.all.count
        #expect(!client.isConnected)
        client.shutdown(timeout: .seconds(2))  // second call: no crash, no effect

        // A message the client would have received goes through the broker to someone else only.
        let witness = try RecordingSubscriber(broker: broker.address, topicFilters: ["late/#"])
        let publisher = try MQTTClient(configuration: configuration(broker, "late-publisher")) { _ in }
        try publisher.start()
        #expect(publisher.waitUntilConnected(timeout: .seconds(5)))
        try publisher.publish(MQTTMessage(topic: "late/x", string: "too late", qos: .atLeastOnce))
        #expect(witness.waitForMessage(on: "late/x") != nil)
        #expect(events.all.count == countAtShutdown)

        #expect(throws: MQTTError.self) { try client.publish(MQTTMessage(topic: "late/x", string: "no")) }
        #expect(throws: MQTTError.self) { try client.subscribe("late/y", qos: .atMostOnce) }
        #expect(throws: MQTTError.self) { try client.start() }
        #expect(!client.waitUntilConnected(timeout: .milliseconds(50)))
        publisher.shutdown(timeout: .seconds(2))
    }

    @Test("shutdown called from the event handler (the loop thread) completes without deadlock")
    func shutdownFromEventHandler() throws {
        let broker = try MosquittoBroker()
        let clientBox = Mutex<MQTTClient?>(nil)
        let client = try MQTTClient(configuration: configuration(broker, "self-stopper")) { event in
            if case .connected = event {
                let client = clientBox.withLock { $0 }
                client?.shutdown(timeout: .seconds(2))
            }
        }
        clientBox.withLock { $0 = client }
        try client.start()
        #expect(broker.waitForLog(containing: "Client self-stopper disconnected."), "\(broker.log())")
        #expect(throws: MQTTError.self) { try client.publish(MQTTMessage(topic: "t", string: "x")) }
        clientBox.withLock { $0 = nil }
    }

    @Test("an MQTT 5 persistent session (cleanSession false) survives a clean disconnect: messages published meanwhile arrive on return")
    func persistentSessionSurvivesDisconnect() throws {
        let broker = try MosquittoBroker()
        func connectSubscriber(_ events: EventLog) throws -> MQTTClient {
            try TestClient.connected(to: broker.address, clientID: "persistent-v5", configure: { $0.cleanSession = false }, events: events)
        }
        let firstEvents = EventLog()
        let first = try connectSubscriber(firstEvents)
        try TestClient.subscribe(first, events: firstEvents, to: "kept/#")
        first.shutdown(timeout: .seconds(2))
        #expect(broker.waitForLog(containing: "Client persistent-v5 disconnected."), "\(broker.log())")

        let publisher = try TestClient.connected(to: broker.address, clientID: "while-away")
        let id = try publisher.publish(MQTTMessage(topic: "kept/x", string: "queued for you", qos: .atLeastOnce))
        #expect(publisher.waitUntilPublished(messageID: id, timeout: .seconds(5)))

        let events = EventLog()
        let again = try connectSubscriber(events)
        #expect(events.waitForMessage(on: "kept/x")?.payloadString == "queued for you")
        guard case .connected(let sessionPresent)? = events.all.first else {
            Issue.record("first event: \(events.kinds)")
            return
        }
        #expect(sessionPresent)
        again.shutdown(timeout: .seconds(1))
    }
}
