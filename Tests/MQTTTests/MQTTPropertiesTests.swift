import Foundation
import MQTT
import MotionTestSupport
import Testing

/// MQTT 5 message properties and subscription options, against a real mosquitto and its command-line tools.
@Suite("MQTT 5 properties and subscription options")
struct MQTTPropertiesTests {
    let broker: MosquittoBroker

    init() throws {
        broker = try MosquittoBroker()
    }

    private let correlation: [UInt8] = [0x00, 0xFF, 0x10, 0x7F, 0x80]

    @Test("properties we publish reach mosquitto_sub (-V 5) and our own subscriber unchanged")
    func publishedPropertiesArrive() throws {
        let events = EventLog()
        let subscriber = try TestClient.connected(to: broker.address, clientID: "props-sub", events: events)
        try TestClient.subscribe(subscriber, events: events, to: "props/#")
        let publisher = try TestClient.connected(to: broker.address, clientID: "props-pub")
        // Retained, so mosquitto_sub (the independent reader, started afterwards) receives it too.
        let sent = MQTTMessage(
            topic: "props/one", string: "{\"cmd\":\"start\"}", qos: .atLeastOnce, retain: true,
            contentType: "application/json", messageExpiryInterval: 3600, responseTopic: "props/reply/7",
            correlationData: Array("corr-42".utf8))
        let id = try publisher.publish(sent)
        #expect(publisher.waitUntilPublished(messageID: id, timeout: .seconds(5)))
        let toolOutput = try TestClient.run(
            "/usr/bin/mosquitto_sub",
            ["-V", "5", "-h", "127.0.0.1", "-p", "\(broker.port)", "-t", "props/one", "-C", "1", "-F", "%C|%E|%R|%D|%p"])
        let fields = toolOutput.trimmingCharacters(in: .newlines).split(separator: "|", omittingEmptySubsequences: false)
        #expect(fields.count == 5, "\(toolOutput)")
        if fields.count == 5 {
            #expect(fields[0] == "application/json")
            #expect(["3600", "3599"].contains(fields[1]))  // remaining lifetime in s
            #expect(fields[2] == "props/reply/7")
            #expect(fields[3] == "corr-42")
            #expect(fields[4] == "{\"cmd\":\"start\"}")
        }
        let received = events.waitForMessage(on: "props/one")
        #expect(received?.contentType == "application/json")
        #expect(received?.responseTopic == "props/reply/7")
        #expect(received?.correlationData == Array("corr-42".utf8))
        // The broker forwards the remaining lifetime: at most what was sent, and a second at most passed.
        #expect((3599...3600).contains(received?.messageExpiryInterval ?? 0))
        #expect(received?.payload == sent.payload)

        // Binary correlation data survives byte for byte between our clients.
        let binary = try publisher.publish(MQTTMessage(topic: "props/binary", string: "x", qos: .atLeastOnce, correlationData: correlation))
        #expect(publisher.waitUntilPublished(messageID: binary, timeout: .seconds(5)))
        #expect(events.waitForMessage(on: "props/binary")?.correlationData == correlation)
    }

    @Test("recurring properties (kept lists, more kinds than are kept, answers with their own) arrive on every message")
    func recurringPropertiesArriveOnEveryMessage() throws {
        let events = EventLog()
        let subscriber = try TestClient.connected(to: broker.address, clientID: "props-rec-sub", events: events)
        try TestClient.subscribe(subscriber, events: events, to: "rec/#")
        let publisher = try TestClient.connected(to: broker.address, clientID: "props-rec-pub")
        // Twelve kinds of data messages (more than the connection keeps lists for), three rounds each,
        // interleaved with answers that carry a response topic and correlation data of their own.
        var sent: [MQTTMessage] = []
        for round in 0..<3 {
            for kind in 0..<12 {
                sent.append(MQTTMessage(
                    topic: "rec/data/\(kind)", string: "\(round)", qos: .atLeastOnce,
                    contentType: kind.isMultiple(of: 2) ? "application/json" : "text/plain",
                    messageExpiryInterval: kind < 10 ? UInt32(600 + kind) : nil))
            }
            sent.append(MQTTMessage(
                topic: "rec/answer", string: "\(round)", qos: .atLeastOnce, contentType: "application/json",
                responseTopic: "rec/reply/\(round)", correlationData: [UInt8(round)]))
        }
        for message in sent {
            let id = try publisher.publish(message)
            #expect(publisher.waitUntilPublished(messageID: id, timeout: .seconds(5)))
        }
        func received() -> [MQTTMessage] {
            events.all.compactMap { event -> MQTTMessage? in
                if case .message(let message) = event, message.topic.hasPrefix("rec/") { return message }
                return nil
            }
        }
        #expect(events.wait { _ in received().count >= sent.count })
        let received = received()
        #expect(received.count == sent.count)
        for (message, arrived) in zip(sent, received) {
            #expect(arrived.topic == message.topic && arrived.payload == message.payload)
            #expect(arrived.contentType == message.contentType, "\(message.topic)")
            #expect(arrived.responseTopic == message.responseTopic && arrived.correlationData == message.correlationData)
            if let expiry = message.messageExpiryInterval {
                #expect(((expiry - 1)...expiry).contains(arrived.messageExpiryInterval ?? 0), "\(message.topic)")
            } else {
                #expect(arrived.messageExpiryInterval == nil, "\(message.topic)")
            }
        }
    }

    @Test("properties set by mosquitto_pub are read from the received message; absent ones are nil")
    func receivedPropertiesAreRead() throws {
        let events = EventLog()
        let client = try TestClient.connected(to: broker.address, clientID: "props-reader", events: events)
        try TestClient.subscribe(client, events: events, to: "tool/#")
        _ = try TestClient.run(
            "/usr/bin/mosquitto_pub",
            ["-V", "5", "-h", "127.0.0.1", "-p", "\(broker.port)", "-t", "tool/a", "-m", "hello", "-q", "1",
             "-D", "publish", "content-type", "text/plain", "-D", "publish", "response-topic", "tool/answer",
             "-D", "publish", "correlation-data", "abc", "-D", "publish", "message-expiry-interval", "120"])
        _ = try TestClient.run(
            "/usr/bin/mosquitto_pub", ["-V", "5", "-h", "127.0.0.1", "-p", "\(broker.port)", "-t", "tool/plain", "-m", "p", "-q", "1"])
        let withProperties = events.waitForMessage(on: "tool/a")
        #expect(withProperties?.contentType == "text/plain")
        #expect(withProperties?.responseTopic == "tool/answer")
        #expect(withProperties?.correlationData == Array("abc".utf8))
        #expect((119...120).contains(withProperties?.messageExpiryInterval ?? 0))
        #expect(events.waitForMessage(on: "tool/plain") == MQTTMessage(topic: "tool/plain", string: "p", qos: .atLeastOnce))
    }

    @Test("under MQTT 3.1.1 the properties are silently not sent")
    func propertiesDroppedUnderMQTT311() throws {
        let events = EventLog()
        let subscriber = try TestClient.connected(to: broker.address, clientID: "v5-sub", events: events)
        try TestClient.subscribe(subscriber, events: events, to: "old/#")
        let publisher = try TestClient.connected(to: broker.address, clientID: "v311-pub") { $0.protocolVersion = .v311 }
        let id = try publisher.publish(
            MQTTMessage(topic: "old/x", string: "body", qos: .atLeastOnce, contentType: "text/plain", correlationData: [1, 2]))
        #expect(publisher.waitUntilPublished(messageID: id, timeout: .seconds(5)))
        #expect(events.waitForMessage(on: "old/x") == MQTTMessage(topic: "old/x", string: "body", qos: .atLeastOnce))
    }

    @Test("retainAsPublished shows a retained publication as retained while subscribed; without it the flag is cleared")
    func retainAsPublished() throws {
        let keeping = EventLog()
        let plain = EventLog()
        let keeper = try TestClient.connected(to: broker.address, clientID: "rap-on", events: keeping)
        try TestClient.subscribe(keeper, events: keeping, to: "ctl/+/set", retainAsPublished: true)
        let other = try TestClient.connected(to: broker.address, clientID: "rap-off", events: plain)
        try TestClient.subscribe(other, events: plain, to: "ctl/+/set")
        // A 3.1.1 client with the option: the option must not reach the wire (the broker would drop us).
        let legacyEvents = EventLog()
        let legacy = try TestClient.connected(to: broker.address, clientID: "rap-311", configure: { $0.protocolVersion = .v311 }, events: legacyEvents)
        try TestClient.subscribe(legacy, events: legacyEvents, to: "ctl/+/set", retainAsPublished: true)

        let publisher = try TestClient.connected(to: broker.address, clientID: "rap-pub")
        let id = try publisher.publish(MQTTMessage(topic: "ctl/gyro/set", string: "start", qos: .atLeastOnce, retain: true))
        #expect(publisher.waitUntilPublished(messageID: id, timeout: .seconds(5)))
        #expect(keeping.waitForMessage(on: "ctl/gyro/set")?.retain == true)
        #expect(plain.waitForMessage(on: "ctl/gyro/set")?.retain == false)
        #expect(legacyEvents.waitForMessage(on: "ctl/gyro/set")?.retain == false)
        #expect(legacy.isConnected)
    }

    @Test("noLocal hides the client's own publications but not others'")
    func noLocal() throws {
        let events = EventLog()
        let client = try TestClient.connected(to: broker.address, clientID: "nolocal", events: events)
        try TestClient.subscribe(client, events: events, to: "echo/#", noLocal: true)
        let own = try client.publish(MQTTMessage(topic: "echo/own", string: "mine", qos: .atLeastOnce))
        #expect(client.waitUntilPublished(messageID: own, timeout: .seconds(5)))
        let other = try TestClient.connected(to: broker.address, clientID: "nolocal-other")
        _ = try other.publish(MQTTMessage(topic: "echo/other", string: "theirs", qos: .atLeastOnce))
        #expect(events.waitForMessage(on: "echo/other")?.payloadString == "theirs")
        #expect(events.messages.map(\.topic).filter { $0.hasPrefix("echo/") } == ["echo/other"])
    }
}
