import Foundation
import MotionTestSupport
import Synchronization
import Testing

@testable import MQTT

/// The durable offline buffer through a real broker: what a client could not send survives the client.
@Suite("Durable offline buffer")
struct MQTTDurableOfflineBufferTests {
    private let directory: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("durable-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    private func configuration(_ broker: MosquittoBroker, limits: MQTTOfflineBufferLimits = .default) -> MQTTClientConfiguration {
        var configuration = MQTTClientConfiguration(broker: broker.address, clientID: "durable-pub", reconnectDelay: 1...1)
        configuration.offlineBuffer = limits
        configuration.durableOfflineBuffer = MQTTDurableOfflineBuffer(path: "\(directory)/offline.db")
        return configuration
    }

    @Test("messages published while disconnected survive a restart of the client and go first, in order, properties intact")
    func survivesTheClient() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let broker = try MosquittoBroker(options: .init(persistence: true))
        let subscriber = try SequenceSubscriber(broker: broker, clientID: "durable-sub", topic: "durable/seq")
        let replies = try RecordingSubscriber(broker: broker.address, topicFilters: ["durable/props"])
        broker.stop()

        let first = try MQTTClient(configuration: configuration(broker)) { _ in }
        try first.start()
        for sequence in 0..<30 {
            try first.publish(MQTTMessage(topic: "durable/seq", string: "\(sequence)", qos: .atLeastOnce))
        }
        var withProperties = MQTTMessage(topic: "durable/props", payload: [0, 1, 0xff], qos: .exactlyOnce, contentType: "application/octet-stream")
        withProperties.correlationData = [9, 8, 7]
        withProperties.messageExpiryInterval = 3_600
        try first.publish(withProperties)
        #expect(first.statistics.offlineBufferIsDurable && first.statistics.bufferedMessages == 31)
        first.shutdown(timeout: .seconds(1))

        // The next run finds them, and what it publishes waits behind them.
        let problems = Mutex<[String]>([])
        let published = Mutex(0)
        let second = try MQTTClient(configuration: configuration(broker)) { event in
            if case .offlineBufferProblem(let problem) = event { problems.withLock { $0.append(problem) } }
            if case .published = event { published.withLock { $0 += 1 } }
        }
        #expect(second.statistics.bufferedMessages == 31)
        for sequence in 30..<40 {
            try second.publish(MQTTMessage(topic: "durable/seq", string: "\(sequence)", qos: .atLeastOnce))
        }
        try broker.restart()
        // The subscribers are back (the sequence one has a persistent session; the other must resubscribe).
        let back = ContinuousClock.now + .seconds(5)
        while !((try? replies.synchronize(timeout: .milliseconds(300))) ?? false) && ContinuousClock.now < back {}
        try second.start()
        #expect(subscriber.waitFor(0..<40, timeout: .seconds(10)), "\(subscriber.sequences)")
        #expect(firstOccurrences(subscriber.sequences) == Array(0..<40))
        let received = try #require(replies.waitForMessage(on: "durable/props")).message
        #expect(received.payload == [0, 1, 0xff] && received.correlationData == [9, 8, 7])
        #expect(received.contentType == "application/octet-stream" && (received.messageExpiryInterval ?? 0) > 3_500)
        #expect(problems.withLock { $0 }.isEmpty)
        // All 41 acknowledged: each one's delete reaches the journal before its published event, and
        // shutdown commits what is pending.
        #expect(eventually(within: .seconds(10)) { published.withLock { $0 } >= 41 })
        #expect(second.statistics.bufferedMessages == 0)
        second.shutdown(timeout: .seconds(1))

        // Acknowledged means gone from the file.
        let third = try MQTTClient(configuration: configuration(broker)) { _ in }
        #expect(third.statistics.bufferedMessages == 0)
        third.shutdown(timeout: .seconds(1))
    }

    @Test("a damaged file is reported, set aside and replaced; the client keeps buffering")
    func damagedFileIsReplaced() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let broker = try MosquittoBroker()
        broker.stop()
        try Data(repeating: 0x5a, count: 8_192).write(to: URL(fileURLWithPath: "\(directory)/offline.db"))
        let events = EventLog()
        let client = try MQTTClient(configuration: configuration(broker), events: events.handler)
        try client.start()
        #expect(events.wait(for: "offlineBufferProblem"))
        let problem = events.all.compactMap { event -> String? in
            if case .offlineBufferProblem(let text) = event { return text }
            return nil
        }.first ?? ""
        #expect(problem.contains("set aside as"), "\(problem)")
        try client.publish(MQTTMessage(topic: "durable/x", string: "kept", qos: .atLeastOnce))
        #expect(client.statistics.offlineBufferIsDurable && client.statistics.bufferedMessages == 1)
        client.shutdown(timeout: .seconds(1))
        let again = try MQTTClient(configuration: configuration(broker)) { _ in }
        #expect(again.statistics.bufferedMessages == 1)
        again.shutdown(timeout: .seconds(1))
    }

    @Test("what the broker has not acknowledged when the client stops is sent by the next one, expiry counting from its publication")
    func unacknowledgedMessagesOutliveTheClient() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // Saved on every change, so that the subscribers' sessions outlive the kill below.
        let broker = try MosquittoBroker(options: .init(persistence: true, extraConfiguration: ["autosave_on_changes true", "autosave_interval 1"]))
        let subscriber = try SequenceSubscriber(broker: broker, clientID: "silent-sub", topic: "durable/seq")
        let replies = try RecordingSubscriber(broker: broker.address, topicFilters: ["durable/expiring", "durable/expired"], cleanSession: false)
        let first = try MQTTClient(configuration: configuration(broker)) { _ in }
        try first.start()
        #expect(first.waitUntilConnected(timeout: .seconds(5)))
        // A broker that hangs: the connection looks up, nothing is acknowledged.
        let pid = try #require(broker.processIdentifier)
        kill(pid, SIGSTOP)
        for sequence in 0..<20 {
            let id = try first.publish(MQTTMessage(topic: "durable/seq", string: "\(sequence)", qos: .atLeastOnce))
            #expect(id > 0, "published directly, not buffered")
        }
        try first.publish(MQTTMessage(topic: "durable/expiring", string: "x", qos: .atLeastOnce, messageExpiryInterval: 60))
        try first.publish(MQTTMessage(topic: "durable/expired", string: "x", qos: .atLeastOnce, messageExpiryInterval: 2))
        // Each was journaled as it was published; shutdown commits the journal before it returns.
        first.shutdown(timeout: .milliseconds(300))
        // The hung broker dies with what it had not read: the only copies left are in the file.
        broker.kill()
        Thread.sleep(forTimeInterval: 2.5)  // the second message's expiry runs out
        try broker.restart()

        let second = try MQTTClient(configuration: configuration(broker)) { _ in }
        #expect(second.statistics.bufferedMessages == 22, "every unacknowledged message was kept")
        try second.start()
        #expect(subscriber.waitFor(0..<20, timeout: .seconds(10)), "\(subscriber.sequences)")
        let expiring = try #require(replies.waitForMessage(on: "durable/expiring")).message
        #expect((expiring.messageExpiryInterval ?? 0) <= 58, "expiry counted from publication: \(expiring.messageExpiryInterval ?? 0)")
        // The expired message is counted instead of sent; a message published after it on its topic (same
        // connection, same topic: it would come second) arrives alone.
        #expect(eventually(within: .seconds(10)) { second.statistics.expiredInBuffer == 1 })
        try second.publish(MQTTMessage(topic: "durable/expired", string: "after", qos: .atLeastOnce))
        #expect(replies.waitForMessage(on: "durable/expired", timeout: .seconds(10)) { $0.payloadString == "after" } != nil)
        #expect(replies.messages(on: "durable/expired").map(\.payloadString) == ["after"], "an expired message is not sent")
        #expect(second.statistics.expiredInBuffer == 1)
        second.shutdown(timeout: .seconds(1))
    }
}
