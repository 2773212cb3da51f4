import MQTT
import MotionTestSupport
import Testing

/// What a client is told when the broker drops it for a duplicate client ID.
@Suite("MQTTClient session takeover")
struct MQTTClientTakeoverTests {
    @Test("a second client with the same ID takes over; the first is told so (or, by libmosquitto 2.0.11, sees a lost connection)")
    func sessionTakeover() throws {
        let broker = try MosquittoBroker()
        let firstEvents = EventLog()
        let configuration = MQTTClientConfiguration(broker: broker.address, clientID: "twin", reconnectDelay: 5...5)
        let first = try MQTTClient(configuration: configuration, events: firstEvents.handler)
        try first.start()
        #expect(first.waitUntilConnected(timeout: .seconds(5)))
        let second = try MQTTClient(configuration: configuration) { _ in }
        try second.start()
        #expect(second.waitUntilConnected(timeout: .seconds(5)))
        #expect(broker.waitForLog(containing: "Client twin already connected, closing old connection."), "\(broker.log())")
        #expect(firstEvents.wait(for: "disconnected"))
        guard case .disconnected(let reasonCode, let reason)? = firstEvents.all.last(where: { EventLog.kind($0) == "disconnected" }) else {
            Issue.record("no disconnected event: \(firstEvents.kinds)")
            return
        }
        // The broker sends DISCONNECT 0x8E "session taken over". libmosquitto 2.0.11 (Debian 12) reports every
        // broker-initiated disconnect as MOSQ_ERR_CONN_LOST, so a duplicate client ID looks like a lost link;
        // 2.0.21 (Debian 13) passes the broker's reason code on.
        #expect((reasonCode == 7 && reason == "The connection was lost.") || (reasonCode == 0x8E && reason == "Session taken over"),
                "\(reasonCode): \(reason)")
        #expect(!first.isConnected)
        second.shutdown(timeout: .seconds(2))
        first.shutdown(timeout: .seconds(2))
    }
}
