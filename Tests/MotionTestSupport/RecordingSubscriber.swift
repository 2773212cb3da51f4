import Foundation
import MQTT
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An ``MQTTClient`` subscribed to some topic filters that records every message it receives, with its
/// arrival time, for integration tests.
///
/// When ``init(broker:topicFilters:qos:clientID:timeout:)`` returns, the subscriptions are active at the
/// broker (proved by a round trip through a private sync topic), so messages published afterwards are
/// not missed. Subscriptions are re-made after a broker restart.
public final class RecordingSubscriber: Sendable {
    /// One received message.
    public struct Record: Sendable, Equatable {
        /// The message as delivered (`retain` is true when it came from the broker's retained store).
        public let message: MQTTMessage
        /// When it arrived, in nanoseconds of `CLOCK_MONOTONIC` (the time base of `IMUSample`).
        public let arrivalNanoseconds: UInt64
    }

    /// Why the subscriber could not be set up.
    public struct SetupError: Error, Sendable, CustomStringConvertible {
        /// What went wrong.
        public let description: String
    }

    /// The underlying client (for example to publish from the same connection or shut it down early).
    public let client: MQTTClient
    /// The filters subscribed to.
    public let topicFilters: [String]
    private let syncTopic: String
    private let recorder: Recorder

    /// Connects, subscribes to `topicFilters` and waits until the broker has applied the subscriptions.
    /// - Parameters:
    ///   - broker: where to connect.
    ///   - topicFilters: filters to subscribe to (wildcards allowed).
    ///   - qos: the subscription QoS, 1 by default.
    ///   - clientID: the MQTT client ID; a unique one by default.
    ///   - cleanSession: `false` for a persistent session (the broker queues QoS ≥ 1 messages while away).
    ///   - username: the user name for brokers with a password file.
    ///   - password: its password.
    ///   - tls: TLS settings for a TLS listener.
    ///   - timeout: how long to wait for the connection and the subscriptions, 5 s by default.
    /// - Throws: ``MQTTError`` or ``SetupError`` when it does not get connected and subscribed in time.
    public init(
        broker: MQTTBrokerAddress,
        topicFilters: [String],
        qos: MQTTQoS = .atLeastOnce,
        clientID: String = "recorder-\(UUID().uuidString.prefix(8))",
        cleanSession: Bool = true,
        username: String? = nil,
        password: MQTTPassword? = nil,
        tls: MQTTTLSConfiguration? = nil,
        timeout: Duration = .seconds(5)
    ) throws {
        let recorder = Recorder()
        self.recorder = recorder
        self.topicFilters = topicFilters
        syncTopic = "motionbridge-test/sync/\(clientID)"
        let configuration = MQTTClientConfiguration(
            broker: broker, clientID: clientID, keepAlive: 10, cleanSession: cleanSession, reconnectDelay: 1...2,
            username: username, password: password, tls: tls)
        client = try MQTTClient(configuration: configuration) { event in
            if case .message(let message) = event { recorder.append(message) }
        }
        try client.subscribe(syncTopic, qos: .atLeastOnce)
        for filter in topicFilters { try client.subscribe(filter, qos: qos) }
        try client.start()
        guard client.waitUntilConnected(timeout: timeout) else {
            client.shutdown(timeout: .seconds(1))
            throw SetupError(description: "recording subscriber \(clientID) did not connect to \(broker) within \(timeout)")
        }
        guard try synchronize(timeout: timeout) else {
            client.shutdown(timeout: .seconds(1))
            throw SetupError(description: "recording subscriber \(clientID): subscriptions not confirmed within \(timeout)")
        }
    }

    deinit {
        client.shutdown(timeout: .seconds(1))
    }

    /// Proves that every subscription sent so far is active: publishes a token to the private sync topic
    /// (after the SUBSCRIBE packets on the same connection) and waits for it to come back.
    /// - Returns: whether the token came back within `timeout`.
    @discardableResult
    public func synchronize(timeout: Duration = .seconds(5)) throws -> Bool {
        let token = UUID().uuidString
        try client.publish(MQTTMessage(topic: syncTopic, string: token, qos: .atLeastOnce))
        return recorder.wait(timeout: timeout) { records in
            records.contains { $0.message.topic == syncTopic && $0.message.payloadString == token }
        }
    }

    /// Every recorded message on `topic` (exact topic name), oldest first, with arrival times.
    public func records(on topic: String) -> [Record] {
        recorder.snapshot().filter { $0.message.topic == topic }
    }

    /// Every recorded message on `topic` (exact topic name), oldest first.
    public func messages(on topic: String) -> [MQTTMessage] {
        records(on: topic).map(\.message)
    }

    /// The `seq` of every JSON message on `topic` that has one, in arrival order (duplicates included):
    /// what loss checks count gaps in.
    public func sequenceNumbers(on topic: String) -> [Int] {
        messages(on: topic).compactMap { message in
            guard let object = try? JSONSerialization.jsonObject(with: Data(message.payload)) as? [String: Any] else { return nil }
            return (object["seq"] as? NSNumber)?.intValue
        }
    }

    /// Every recorded message on any topic except the private sync topic, oldest first.
    public func allRecords() -> [Record] {
        recorder.snapshot().filter { $0.message.topic != syncTopic }
    }

    /// Waits for a message on `topic` that satisfies `predicate` (already recorded ones count).
    /// - Returns: the first such record, or `nil` after `timeout`.
    public func waitForMessage(
        on topic: String, timeout: Duration = .seconds(5), where predicate: @escaping (MQTTMessage) -> Bool = { _ in true }
    ) -> Record? {
        func match(_ records: [Record]) -> Record? {
            records.first { $0.message.topic == topic && predicate($0.message) }
        }
        _ = recorder.wait(timeout: timeout) { match($0) != nil }
        return match(recorder.snapshot())
    }

    /// Waits until at least `count` messages on `topic` are recorded.
    /// - Returns: whether they arrived within `timeout`.
    public func waitForCount(on topic: String, count: Int, timeout: Duration = .seconds(5)) -> Bool {
        recorder.wait(timeout: timeout) { records in
            records.lazy.filter { $0.message.topic == topic }.count >= count
        }
    }

    /// Forgets every recorded message.
    public func clear() {
        recorder.clear()
    }
}

/// The list of records, filled on the MQTT thread and read by test threads.
private final class Recorder: @unchecked Sendable {
    // @unchecked Sendable: `records` is only touched with `condition` locked.
    private let condition = NSCondition()
    private var records: [RecordingSubscriber.Record] = []

    func append(_ message: MQTTMessage) {
        let record = RecordingSubscriber.Record(message: message, arrivalNanoseconds: Self.monotonicNanoseconds())
        condition.lock()
        records.append(record)
        condition.broadcast()
        condition.unlock()
    }

    func snapshot() -> [RecordingSubscriber.Record] {
        condition.lock()
        defer { condition.unlock() }
        return records
    }

    func clear() {
        condition.lock()
        records.removeAll()
        condition.unlock()
    }

    func wait(timeout: Duration, until isSatisfied: ([RecordingSubscriber.Record]) -> Bool) -> Bool {
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        let deadline = Date(timeIntervalSinceNow: seconds)
        condition.lock()
        defer { condition.unlock() }
        while !isSatisfied(records) {
            if !condition.wait(until: deadline) { return isSatisfied(records) }
        }
        return true
    }

    private static func monotonicNanoseconds() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }
}

/// Polls `condition` until it holds (true) or `timeout` has passed (false), for another thread or process
/// to reach a state that no recorder wait can express (a log line, a computed figure, a thread parked on
/// a manual clock); never to let time pass. It looks after 1 ms, then twice as long each time up to every
/// 100 ms, so that what is quick is seen quickly.
public func eventually(within timeout: Duration, _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + timeout
    var pause: UInt32 = 1_000
    while !condition() {
        if ContinuousClock.now >= deadline { return false }
        usleep(pause)
        pause = min(pause * 2, 100_000)
    }
    return true
}
