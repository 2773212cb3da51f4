import Foundation
import MQTT
import MotionTestSupport

/// Short-hands for the clients the integration tests create.
enum TestClient {
    /// A client for `broker` (or `address`), started and connected (throws if not within 5 s).
    static func connected(
        to address: MQTTBrokerAddress, clientID: String, configure: (inout MQTTClientConfiguration) -> Void = { _ in },
        events: EventLog = EventLog()
    ) throws -> MQTTClient {
        let client = try started(to: address, clientID: clientID, configure: configure, events: events)
        guard client.waitUntilConnected(timeout: .seconds(5)) else {
            client.shutdown(timeout: .seconds(1))
            throw SetupError(description: "\(clientID) did not connect to \(address): \(events.all)")
        }
        return client
    }

    /// A client for `address`, started (not waiting for the connection).
    static func started(
        to address: MQTTBrokerAddress, clientID: String, configure: (inout MQTTClientConfiguration) -> Void = { _ in },
        events: EventLog = EventLog()
    ) throws -> MQTTClient {
        var configuration = MQTTClientConfiguration(broker: address, clientID: clientID, reconnectDelay: 1...2)
        configure(&configuration)
        let client = try MQTTClient(configuration: configuration, events: events.handler)
        try client.start()
        return client
    }

    /// Subscribes `client` to `filter` and waits until the broker has applied it: a token published to a
    /// private topic after the SUBSCRIBE (same connection, so processed in order) must come back.
    static func subscribe(
        _ client: MQTTClient, events: EventLog, to filter: String, qos: MQTTQoS = .atLeastOnce,
        retainAsPublished: Bool = false, noLocal: Bool = false
    ) throws {
        try client.subscribe(filter, qos: qos, retainAsPublished: retainAsPublished, noLocal: noLocal)
        let syncTopic = "sync/\(UUID().uuidString)"
        try client.subscribe(syncTopic, qos: .atLeastOnce)
        _ = try client.publish(MQTTMessage(topic: syncTopic, string: "sync", qos: .atLeastOnce))
        guard events.waitForMessage(on: syncTopic) != nil else {
            throw SetupError(description: "subscription to \(filter) not confirmed within 5 s")
        }
        try client.unsubscribe(syncTopic)
    }

    /// Runs a mosquitto command-line tool and returns its output (killed after `timeout`).
    static func run(_ tool: String, _ arguments: [String], timeout: Duration = .seconds(5)) throws -> String {
        try CommandLineTool.run(tool, arguments, timeout: timeout).output
    }

    /// Why a test client could not be set up.
    struct SetupError: Error, CustomStringConvertible {
        let description: String
    }
}

extension EventLog {
    /// The messages received so far, oldest first.
    var messages: [MQTTMessage] {
        all.compactMap { event in
            if case .message(let message) = event { return message }
            return nil
        }
    }

    /// Waits until a message on `topic` has arrived and returns the first one.
    func waitForMessage(on topic: String, timeout: Duration = .seconds(5)) -> MQTTMessage? {
        wait(timeout: timeout) { events in events.contains { if case .message(let m) = $0 { m.topic == topic } else { false } } }
        return messages.first { $0.topic == topic }
    }
}
