import Foundation
import MQTT
import MotionTestSupport
import Synchronization
import Testing

/// Connecting, publishing and subscribing against a real mosquitto broker.
@Suite("MQTTClient against mosquitto")
struct MQTTClientTests {
    let broker: MosquittoBroker

    init() throws {
        broker = try MosquittoBroker()
    }

    private func makeClient(
        _ clientID: String, protocolVersion: MQTTProtocolVersion = .v5, keepAlive: Int = 30,
        will: MQTTMessage? = nil, events: EventLog
    ) throws -> MQTTClient {
        let configuration = MQTTClientConfiguration(
            broker: broker.address, clientID: clientID, keepAlive: keepAlive, will: will,
            protocolVersion: protocolVersion, reconnectDelay: 1...2)
        return try MQTTClient(configuration: configuration, events: events.handler)
    }

    @Test("connects with MQTT 5 by default, reports connected, and the broker sees protocol and keep-alive")
    func connectsWithMQTT5() throws {
        let events = EventLog()
        let client = try makeClient("connect-v5", keepAlive: 17, events: events)
        #expect(!client.isConnected)
        try client.start()
        #expect(client.waitUntilConnected(timeout: .seconds(5)))
        #expect(client.isConnected)
        #expect(events.wait(for: "connected"))
        guard case .connected(let sessionPresent) = events.all.first else {
            Issue.record("first event is \(events.kinds), not connected")
            return
        }
        #expect(!sessionPresent)
        // mosquitto logs the protocol as p5 for MQTT 5 and p2 for 3.1.1, and the keep-alive as kN.
        #expect(broker.waitForLog(containing: "as connect-v5 (p5, c1, k17)"), "\(broker.log())")
        client.shutdown(timeout: .seconds(2))
    }

    @Test("connects with MQTT 3.1.1 when configured")
    func connectsWithMQTT311() throws {
        let events = EventLog()
        let client = try makeClient("connect-v311", protocolVersion: .v311, events: events)
        try client.start()
        #expect(client.waitUntilConnected(timeout: .seconds(5)))
        #expect(broker.waitForLog(containing: "as connect-v311 (p2, c1, k30)"), "\(broker.log())")
        // Publishing (through the _v5 call with no properties) works on a 3.1.1 connection too.
        let subscriber = try RecordingSubscriber(broker: broker.address, topicFilters: ["v311/#"])
        try client.publish(MQTTMessage(topic: "v311/a", string: "old protocol", qos: .atLeastOnce))
        #expect(subscriber.waitForMessage(on: "v311/a")?.message.payloadString == "old protocol")
        client.shutdown(timeout: .seconds(2))
    }

    @Test(
        "published payload bytes arrive exactly at another client",
        arguments: [MQTTQoS.atMostOnce, .atLeastOnce])
    func publishDeliversExactBytes(qos: MQTTQoS) throws {
        let subscriber = try RecordingSubscriber(broker: broker.address, topicFilters: ["data/#"], qos: .atLeastOnce)
        let events = EventLog()
        let publisher = try makeClient("publisher-\(qos.rawValue)", events: events)
        try publisher.start()
        #expect(publisher.waitUntilConnected(timeout: .seconds(5)))

        let payloads: [(String, [UInt8])] = [
            ("data/binary", Array(0...255).map(UInt8.init).reversed()),  // every byte value, not UTF-8
            ("data/empty", []),
            ("data/text", Array("x = 1.5 m/s² ✓".utf8)),
            ("data/large", (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }),
        ]
        var messageIDs: [Int32] = []
        for (topic, payload) in payloads {
            let messageID = try publisher.publish(MQTTMessage(topic: topic, payload: payload, qos: qos))
            messageIDs.append(messageID)
            #expect(publisher.waitUntilPublished(messageID: messageID, timeout: .seconds(5)))
        }
        for (topic, payload) in payloads {
            let received = subscriber.waitForMessage(on: topic)?.message
            #expect(received?.payload == payload, "payload on \(topic)")
            #expect(received?.qos == qos)  // min(publish QoS, subscription QoS 1)
            #expect(received?.retain == false)
            #expect(subscriber.messages(on: topic).count == 1)
        }
        // One `published` event per message ID, in publication order (the event follows the state
        // change that `waitUntilPublished` sees, so wait for it).
        #expect(events.wait(for: "published", count: payloads.count))
        let publishedIDs = events.all.compactMap { event -> Int32? in
            if case .published(let messageID) = event { return messageID }
            return nil
        }
        #expect(publishedIDs == messageIDs)
        #expect(Set(messageIDs).count == payloads.count)
        publisher.shutdown(timeout: .seconds(2))
    }

    @Test("with reportsPublications off no published event reaches the handler, and waitUntilPublished still works")
    func publicationsUnreported() throws {
        let subscriber = try RecordingSubscriber(broker: broker.address, topicFilters: ["quiet/#"], qos: .atLeastOnce)
        let events = EventLog()
        var configuration = MQTTClientConfiguration(
            broker: broker.address, clientID: "quiet-publisher", keepAlive: 30, reconnectDelay: 1...2)
        configuration.reportsPublications = false
        let publisher = try MQTTClient(configuration: configuration, events: events.handler)
        try publisher.start()
        #expect(publisher.waitUntilConnected(timeout: .seconds(5)))
        for qos in [MQTTQoS.atMostOnce, .atLeastOnce, .exactlyOnce] {
            let messageID = try publisher.publish(MQTTMessage(topic: "quiet/\(qos.rawValue)", string: "x", qos: qos))
            #expect(publisher.waitUntilPublished(messageID: messageID, timeout: .seconds(5)))
        }
        #expect(subscriber.waitForCount(on: "quiet/2", count: 1))
        #expect(subscriber.messages(on: "quiet/0").count == 1)
        #expect(subscriber.messages(on: "quiet/1").count == 1)
        #expect(publisher.statistics.messagesPublished == 3)
        #expect(!events.kinds.contains("published"), "\(events.kinds)")
        #expect(events.kinds.contains("connected"))
        publisher.shutdown(timeout: .seconds(2))
    }

    @Test("a retained message reaches a subscriber that arrives later, flagged retained")
    func retainedMessageReachesLateSubscriber() throws {
        let events = EventLog()
        let publisher = try makeClient("retainer", events: events)
        try publisher.start()
        #expect(publisher.waitUntilConnected(timeout: .seconds(5)))
        let messageID = try publisher.publish(
            MQTTMessage(topic: "dev/status", string: "online", qos: .atLeastOnce, retain: true))
        #expect(publisher.waitUntilPublished(messageID: messageID, timeout: .seconds(5)))
        publisher.shutdown(timeout: .seconds(2))

        let late = try RecordingSubscriber(broker: broker.address, topicFilters: ["dev/+"])
        let record = late.waitForMessage(on: "dev/status")
        #expect(record?.message == MQTTMessage(topic: "dev/status", string: "online", qos: .atLeastOnce, retain: true))
    }

    @Test("a client's subscription receives messages through its own event handler, and unsubscribe stops them")
    func subscribeAndUnsubscribe() throws {
        let events = EventLog()
        let client = try makeClient("self-subscriber", events: events)
        try client.subscribe("loop/+", qos: .atLeastOnce)  // before start: sent on connect
        try client.start()
        #expect(client.waitUntilConnected(timeout: .seconds(5)))
        let other = try RecordingSubscriber(broker: broker.address, topicFilters: ["loop/+"])
        try client.publish(MQTTMessage(topic: "loop/a", string: "1", qos: .atLeastOnce))
        #expect(events.wait { $0.contains { if case .message(let m) = $0 { m.payloadString == "1" } else { false } } })

        try client.unsubscribe("loop/+")
        try client.publish(MQTTMessage(topic: "loop/a", string: "2", qos: .atLeastOnce))
        // The other subscriber proves "2" went through the broker; our client must not get it.
        #expect(other.waitForCount(on: "loop/a", count: 2))
        try other.synchronize()
        let ownPayloads = events.all.compactMap { event -> String? in
            if case .message(let message) = event { return message.payloadString }
            return nil
        }
        #expect(ownPayloads == ["1"])
        client.shutdown(timeout: .seconds(2))
    }

    @Test("publishing to an invalid topic, or subscribing to an invalid filter, throws a clear error")
    func invalidTopicsThrow() throws {
        let client = try makeClient("invalid-topics", events: EventLog())
        try client.start()
        #expect(client.waitUntilConnected(timeout: .seconds(5)))
        for topic in ["sensors/+/x", "sensors/#", ""] {
            do {
                try client.publish(MQTTMessage(topic: topic, string: "x"))
                Issue.record("publish to \"\(topic)\" did not throw")
            } catch {
                #expect(error.code == 3)  // MOSQ_ERR_INVAL
                #expect(error.description.contains("publish to \(topic) failed"))
                #expect(error.description.contains("not a valid topic name"))
            }
        }
        #expect(throws: MQTTError.self) { try client.subscribe("a/#/b", qos: .atMostOnce) }
        #expect(throws: MQTTError.self) { try client.subscribe("a/b+", qos: .atMostOnce) }
        #expect(client.isConnected)  // a refused call does not disturb the connection
        client.shutdown(timeout: .seconds(2))
    }

    @Test("QoS 0 publish before the client is connected fails with NO_CONN instead of vanishing silently")
    func publishWhileDisconnectedThrows() throws {
        let client = try makeClient("not-started", events: EventLog())
        #expect {
            try client.publish(MQTTMessage(topic: "t", string: "x"))
        } throws: { error in
            (error as? MQTTError)?.code == 4  // MOSQ_ERR_NO_CONN
        }
    }

    @Test("a broker that refuses the client produces connectionRefused with the MQTT 5 reason")
    func refusedConnection() throws {
        let strictBroker = try MosquittoBroker(options: .init(allowAnonymous: false))
        let events = EventLog()
        let client = try MQTTClient(
            configuration: .init(broker: strictBroker.address, clientID: "refused", reconnectDelay: 1...1),
            events: events.handler)
        try client.start()
        #expect(events.wait(for: "connectionRefused"))
        guard case .connectionRefused(let reasonCode, let reason)? = events.all.first(where: { EventLog.kind($0) == "connectionRefused" }) else {
            Issue.record("no connectionRefused in \(events.kinds)")
            return
        }
        #expect(reasonCode == 135)  // MQTT 5 "Not authorized"
        #expect(reason.lowercased().contains("not authorized"))
        #expect(!client.isConnected)
        client.shutdown(timeout: .seconds(1))
    }
}
