import MotionContract
import MQTT
import Synchronization

/// A second MQTT connection that counts what arrives and, while recording, measures each message's
/// latency: arrival time (`CLOCK_MONOTONIC`, taken first thing in the message callback on
/// libmosquitto's loop thread) minus the payload's `timestamp` (the sample's `CLOCK_MONOTONIC` time, s).
///
/// The callback only keeps the payload and its arrival; the timestamps are read afterwards
/// (``Recording/latencies()``). Messages that arrive together (a delivery's four topics) are handed to
/// the callback one after the other, so a parse in the callback delayed every later message's arrival by
/// the parses before it: more for larger payloads, which made the agent's 190–640-byte messages look
/// slower against the C floor's 100-byte ones than they are.
final class MonitoringSubscriber: Sendable {
    /// What was received while recording.
    struct Recording: Sendable {
        /// Messages per topic.
        let countsByTopic: [String: Int]
        /// Each message's payload and arrival time (ns of `CLOCK_MONOTONIC`), in arrival order.
        let arrivals: [(payload: [UInt8], arrival: UInt64)]

        /// Reads every payload's `timestamp` (about 10 µs a message): the latencies, ms, of the messages
        /// that have a readable one, and how many had none. Called after the measured process's last
        /// snapshot, so that the parsing is outside the measured time.
        func latencies() -> (milliseconds: [Double], missingTimestamps: Int) {
            var milliseconds: [Double] = []
            milliseconds.reserveCapacity(arrivals.count)
            var missing = 0
            for (payload, arrival) in arrivals {
                if let timestamp = MonitoringSubscriber.timestamp(in: payload) {
                    milliseconds.append((Double(arrival) / 1e9 - timestamp) * 1000)
                } else {
                    missing += 1
                }
            }
            return (milliseconds, missing)
        }
    }

    private struct State: Sendable {
        var recording = false
        var countsByTopic: [String: Int] = [:]
        /// The recorded messages' payloads and arrival times (ns of `CLOCK_MONOTONIC`), read at the end.
        var arrivals: [(payload: [UInt8], arrival: UInt64)] = []
    }

    /// The connection.
    let client: MQTTClient
    private let measuresLatency: Bool
    private let syncTopic: String
    private let received = Atomic<Int>(0)
    private let firstArrival = Atomic<UInt64>(0)
    private let lastArrival = Atomic<UInt64>(0)
    private let syncTokens = Atomic<Int>(0)
    private let state = Mutex(State())

    /// Connects, subscribes to `topicFilters` at QoS 0 and waits until the broker has applied the
    /// subscriptions (a token published to a private topic comes back).
    /// - Parameters:
    ///   - broker: the broker.
    ///   - topicFilters: what to count.
    ///   - measuresLatency: keep each payload for its `timestamp` and count per topic while recording; `false` only
    ///     counts (the cheapest possible subscriber, for the throughput run).
    ///   - clientID: the MQTT client ID.
    /// - Throws: ``BenchError`` or ``MQTTError`` when it is not connected and subscribed within 5 s.
    init(broker: MQTTBrokerAddress, topicFilters: [String], measuresLatency: Bool, clientID: String) throws {
        self.measuresLatency = measuresLatency
        let syncTopic = "motion-bench/sync/\(clientID)"
        self.syncTopic = syncTopic
        let configuration = MQTTClientConfiguration(broker: broker, clientID: clientID, keepAlive: 30)
        // The handler needs `self`, which does not exist before `client`: route through a box.
        let box = Mutex<MonitoringSubscriber?>(nil)
        client = try MQTTClient(configuration: configuration) { event in
            guard case .message(let message) = event else { return }
            let arrival = Clock.monotonicNanoseconds()
            box.withLock { $0 }?.receive(message, arrival: arrival)
        }
        box.withLock { $0 = self }
        for filter in topicFilters { try client.subscribe(filter, qos: .atMostOnce) }
        try client.subscribe(syncTopic, qos: .atMostOnce)
        try client.start()
        guard client.waitUntilConnected(timeout: .seconds(5)) else {
            client.shutdown(timeout: .seconds(1))
            throw BenchError("subscriber could not connect to \(broker)")
        }
        for _ in 0..<50 where syncTokens.load(ordering: .acquiring) == 0 {
            try client.publish(MQTTMessage(topic: syncTopic, string: "sync"))
            Clock.sleep(seconds: 0.1)
        }
        guard syncTokens.load(ordering: .acquiring) > 0 else {
            client.shutdown(timeout: .seconds(1))
            throw BenchError("subscriber's subscriptions were not confirmed by \(broker) within 5 s")
        }
    }

    /// Messages received so far (sync tokens excluded).
    var receivedCount: Int { received.load(ordering: .acquiring) }

    /// Arrival of the first and the latest counted message, ns of `CLOCK_MONOTONIC` (0 = none yet).
    var arrivalSpan: (first: UInt64, last: UInt64) {
        (firstArrival.load(ordering: .acquiring), lastArrival.load(ordering: .acquiring))
    }

    /// Starts a recording (clears the previous one).
    func beginRecording() {
        state.withLock { $0 = State(recording: true) }
    }

    /// Ends the recording and returns it (at once: nothing is parsed here).
    func endRecording() -> Recording {
        state.withLock { state in
            state.recording = false
            return Recording(countsByTopic: state.countsByTopic, arrivals: state.arrivals)
        }
    }

    /// Waits until `count` messages have arrived, or no new one for `quietPeriod` seconds.
    func waitForMessages(_ count: Int, quietPeriod: Double) {
        var seen = receivedCount
        var lastProgress = Clock.monotonicNanoseconds()
        while seen < count {
            Clock.sleep(seconds: 0.01)
            let now = receivedCount
            if now != seen {
                seen = now
                lastProgress = Clock.monotonicNanoseconds()
            } else if Double(Clock.monotonicNanoseconds() - lastProgress) / 1e9 > quietPeriod {
                return
            }
        }
    }

    /// Disconnects.
    func shutdown() {
        client.shutdown(timeout: .seconds(2))
    }

    private func receive(_ message: MQTTMessage, arrival: UInt64) {
        if message.topic == syncTopic {
            syncTokens.add(1, ordering: .releasing)
            return
        }
        if received.add(1, ordering: .relaxed).newValue == 1 { firstArrival.store(arrival, ordering: .releasing) }
        lastArrival.store(arrival, ordering: .releasing)
        guard measuresLatency else { return }
        state.withLock { state in
            guard state.recording else { return }
            state.countsByTopic[message.topic, default: 0] += 1
            state.arrivals.append((message.payload, arrival))
        }
    }

    /// The first sample's `timestamp` in a data payload, s (the contract's decoder).
    static func timestamp(in payload: [UInt8]) -> Double? {
        try? SamplePayloadDecoder.firstTimestamp(payload)
    }
}
