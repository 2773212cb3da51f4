import Foundation
import MQTT
import MotionTestSupport

/// A subscriber with a persistent session (fixed client ID, clean session off, QoS 1) that records
/// the sequence numbers arriving on `topic`; the broker queues for it while it is away.
final class SequenceSubscriber: Sendable {
    let client: MQTTClient
    private let received = Locked<[Int]>([])

    init(broker: MosquittoBroker, clientID: String, topic: String) throws {
        let events = EventLog()
        let received = received
        let configuration = MQTTClientConfiguration(
            broker: broker.address, clientID: clientID, cleanSession: false, reconnectDelay: 1...2)
        client = try MQTTClient(configuration: configuration) { event in
            events.handler(event)
            if case .message(let message) = event, message.topic == topic, let sequence = Int(message.payloadString) {
                received.withLock { $0.append(sequence) }
            }
        }
        try client.start()
        guard client.waitUntilConnected(timeout: .seconds(5)) else { throw TestClient.SetupError(description: "subscriber did not connect") }
        try TestClient.subscribe(client, events: events, to: topic)
    }

    var sequences: [Int] { received.withLock { $0 } }

    /// Waits until every number in `expected` has arrived at least once.
    func waitFor(_ expected: Range<Int>, timeout: Duration) -> Bool {
        eventually(within: timeout) { Set(sequences).isSuperset(of: expected) }
    }
}

/// The first occurrence of each number, in arrival order (duplicates from QoS 1 re-sends removed).
func firstOccurrences(_ sequences: [Int]) -> [Int] {
    var seen = Set<Int>()
    return sequences.filter { seen.insert($0).inserted }
}
