import Foundation
import MQTT
import MotionTestSupport
import Testing

/// Falling back to MQTT 3.1.1 when the broker refuses MQTT 5, through a 3.1.1-only proxy in front of mosquitto.
@Suite("MQTT 3.1.1 fallback")
struct MQTTProtocolFallbackTests {
    @Test("configured for MQTT 5 behind a 3.1.1-only broker: refused once, connects with 3.1.1; pub/sub and the will work")
    func fallsBackAndWorks() throws {
        let broker = try MosquittoBroker()
        let proxy = try MQTTVersionFilteringProxy(upstreamPort: broker.port)
        let watcher = try RecordingSubscriber(broker: broker.address, topicFilters: ["fb/#"])
        let events = EventLog()
        let will = MQTTMessage(topic: "fb/dev/status", string: "offline", qos: .atLeastOnce, retain: true, contentType: "text/plain")
        let client = try TestClient.connected(
            to: proxy.address, clientID: "fallback-client", configure: { $0.will = will }, events: events)

        #expect(client.negotiatedProtocolVersion == .v311)
        #expect(proxy.refusedConnections == 1)
        #expect(proxy.forwardedConnections == 1)
        #expect(events.wait(for: "connected"))  // the event follows the state change
        let kinds = events.kinds
        #expect(Array(kinds.prefix(3)) == ["connectionRefused", "disconnected", "connected"], "\(kinds)")
        if case .connectionRefused(let code, let reason)? = events.all.first {
            #expect(code == 132)  // MQTT 5 "unsupported protocol version" (libmosquitto maps 3.1.1's code 1 to it)
            #expect(reason.contains("MQTT 3.1.1"), "\(reason)")
        }
        // mosquitto logs the protocol as p2 for MQTT 3.1.1.
        #expect(broker.waitForLog(containing: "as fallback-client (p2"), "\(broker.log())")

        // Publishing (properties silently left out) and subscribing work over the 3.1.1 connection.
        let id = try client.publish(MQTTMessage(topic: "fb/data", string: "42", qos: .atLeastOnce, contentType: "text/plain"))
        #expect(client.waitUntilPublished(messageID: id, timeout: .seconds(5)))
        #expect(watcher.waitForMessage(on: "fb/data")?.message == MQTTMessage(topic: "fb/data", string: "42", qos: .atLeastOnce))
        try TestClient.subscribe(client, events: events, to: "fb/cmd", retainAsPublished: true)
        _ = try watcher.client.publish(MQTTMessage(topic: "fb/cmd", string: "stop", qos: .atLeastOnce))
        #expect(events.waitForMessage(on: "fb/cmd")?.payloadString == "stop")

        // The connection dies without DISCONNECT: the broker publishes the will set for the 3.1.1 CONNECT.
        proxy.stop()
        let published = watcher.waitForMessage(on: "fb/dev/status")?.message
        #expect(published?.payloadString == "offline")
        #expect(published?.contentType == nil)  // will properties are MQTT 5 only
        client.shutdown(timeout: .seconds(1))
    }

    @Test("a broker that closes the connection after an MQTT 5 CONNECT (twice in a row) also leads to 3.1.1, also with a persistent session")
    func fallsBackWhenClosedAfterConnect() throws {
        let broker = try MosquittoBroker()
        let proxy = try MQTTVersionFilteringProxy(upstreamPort: broker.port, refusal: .closeConnection)
        let events = EventLog()
        // cleanSession false: the MQTT 5 CONNECT carries a session expiry property, which must not
        // survive into the 3.1.1 CONNECT.
        let client = try TestClient.started(to: proxy.address, clientID: "closed-twice", configure: { configuration in
            configuration.reconnectDelay = 1...1
            configuration.cleanSession = false
        }, events: events)
        #expect(client.waitUntilConnected(timeout: .seconds(5)))
        #expect(client.negotiatedProtocolVersion == .v311)
        #expect(proxy.refusedConnections == 2)
        #expect(events.wait(for: "connected"))
        #expect(events.kinds.filter { $0 == "disconnected" }.count == 2)
        #expect(broker.waitForLog(containing: "as closed-twice (p2, c0"), "\(broker.log())")
        client.shutdown(timeout: .seconds(1))
    }

    @Test("without fallback the client keeps refusing to downgrade; with a v5 broker it stays on MQTT 5")
    func noFallbackWhenDisabledOrNotNeeded() throws {
        let broker = try MosquittoBroker()
        let proxy = try MQTTVersionFilteringProxy(upstreamPort: broker.port)
        let strictEvents = EventLog()
        let strict = try TestClient.started(
            to: proxy.address, clientID: "strict-v5", configure: { $0.allowsProtocolFallback = false }, events: strictEvents)
        #expect(strictEvents.wait(for: "connectionRefused"))
        #expect(!strict.waitUntilConnected(timeout: .milliseconds(300)))
        #expect(strict.negotiatedProtocolVersion == nil)
        strict.shutdown(timeout: .seconds(1))

        let direct = try TestClient.connected(to: broker.address, clientID: "direct-v5")
        #expect(direct.negotiatedProtocolVersion == .v5)
        #expect(broker.waitForLog(containing: "as direct-v5 (p5"), "\(broker.log())")
    }
}
