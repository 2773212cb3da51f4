import Foundation
@testable import MQTT
import MotionTestSupport
import Synchronization
import Testing

/// The offline buffer: nothing lost across a broker outage; bounded, dropping the oldest first.
@Suite("Offline buffer")
struct MQTTOfflineBufferTests {
    @Test("~200 msg/s QoS 1 across a broker outage of 400 buffered messages (SIGTERM, persistence): every sequence number arrives, in order")
    func nothingLostAcrossOutage() throws {
        let broker = try MosquittoBroker(options: .init(persistence: true, unlimitedQueues: true))
        let subscriber = try SequenceSubscriber(broker: broker, clientID: "seq-sub", topic: "seq/data")
        let publisher = try TestClient.connected(to: broker.address, clientID: "seq-pub") { $0.reconnectDelay = 1...2 }

        let next = Locked(0)
        let stop = Locked(false)
        let negativeIDs = Locked(0)
        let errors = Locked<[String]>([])
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            while !stop.value {
                let sequence = next.value
                do {
                    let id = try publisher.publish(MQTTMessage(topic: "seq/data", string: "\(sequence)", qos: .atLeastOnce))
                    if id < 0 { negativeIDs.withLock { $0 += 1 } }
                } catch {
                    errors.withLock { $0.append("\(sequence): \(error)") }
                }
                next.withLock { $0 = sequence + 1 }
                usleep(5_000)  // ≈ 200 msg/s (less under load; the figure is reported)
            }
            finished.signal()
        }
        // Traffic flows (≈ 1 s of it), then the outage lasts while 400 messages are buffered (≈ 2 s), then
        // the publisher reconnects, sends the buffer and goes on publishing live (20 more).
        #expect(eventually(within: .seconds(10)) { subscriber.sequences.count >= 200 })
        let beforeOutage = next.value
        broker.stop()
        #expect(eventually(within: .seconds(10)) { publisher.statistics.bufferedMessages >= 400 })
        let buffered = publisher.statistics.bufferedMessages
        try broker.restart()
        #expect(eventually(within: .seconds(10)) {
            let statistics = publisher.statistics
            return statistics.reconnects == 1 && statistics.bufferedMessages == 0
        })
        let drained = next.value
        #expect(eventually(within: .seconds(10)) { next.value >= drained + 20 })
        stop.withLock { $0 = true }
        finished.wait()
        let total = next.value

        #expect(errors.withLock { $0 }.isEmpty, "\(errors.withLock { $0.prefix(5) })")
        #expect(subscriber.waitFor(0..<total, timeout: .seconds(15)), "missing: \(Set(0..<total).subtracting(subscriber.sequences).sorted().prefix(20))")
        #expect(firstOccurrences(subscriber.sequences) == Array(0..<total))
        let statistics = publisher.statistics
        #expect(statistics.droppedFromBuffer == 0)
        #expect(statistics.droppedWhileDisconnected == 0)
        #expect(statistics.reconnects == 1)
        #expect(statistics.bufferedMessages == 0)
        #expect(buffered >= 400, "only \(buffered) buffered during the outage")
        #expect(negativeIDs.value >= buffered)
        print("offline buffer: \(total) messages, \(beforeOutage) before the outage, \(buffered) buffered during it, "
            + "\(subscriber.sequences.count - total) duplicates, statistics \(statistics)")
        publisher.shutdown(timeout: .seconds(1))
    }

    @Test("a 50-message buffer keeps the newest 50 of an outage: exactly the oldest are dropped and counted; QoS 0 is refused")
    func tinyBufferDropsOldest() throws {
        let broker = try MosquittoBroker(options: .init(persistence: true, unlimitedQueues: true))
        let subscriber = try SequenceSubscriber(broker: broker, clientID: "tiny-sub", topic: "tiny/data")
        let events = EventLog()
        let publisher = try TestClient.connected(to: broker.address, clientID: "tiny-pub", configure: { configuration in
            configuration.reconnectDelay = 1...1
            configuration.offlineBuffer = MQTTOfflineBufferLimits(maximumMessages: 50)
        }, events: events)
        func publish(_ sequences: Range<Int>) throws -> [Int32] {
            try sequences.map { try publisher.publish(MQTTMessage(topic: "tiny/data", string: "\($0)", qos: .atLeastOnce)) }
        }
        let beforeIDs = try publish(0..<10)
        #expect(beforeIDs.allSatisfy { $0 > 0 })
        #expect(beforeIDs.allSatisfy { publisher.waitUntilPublished(messageID: $0, timeout: .seconds(5)) })

        broker.stop()
        #expect(events.wait(for: "disconnected"))
        let outageIDs = try publish(10..<210)
        #expect(outageIDs.allSatisfy { $0 < 0 })
        #expect(throws: MQTTError.self) { try publisher.publish(MQTTMessage(topic: "tiny/qos0", string: "lost")) }
        var statistics = publisher.statistics
        #expect(statistics.bufferedMessages == 50)
        #expect(statistics.droppedFromBuffer == 150)
        #expect(statistics.droppedWhileDisconnected == 1)
        let payloadBytes = (160..<210).map { "\($0)".utf8.count }.reduce(0, +)  // apart: Swift 6.0 cannot type-check it inside #expect
        #expect(statistics.bufferedBytes == 50 * "tiny/data".utf8.count + payloadBytes)

        try broker.restart()
        #expect(publisher.waitUntilConnected(timeout: .seconds(5)))
        let afterIDs = try publish(210..<220)
        #expect(subscriber.waitFor(160..<220, timeout: .seconds(10)))
        #expect(subscriber.waitFor(0..<10, timeout: .seconds(1)))
        // The gap is exactly the 150 oldest messages of the outage; the rest arrived in order.
        #expect(firstOccurrences(subscriber.sequences) == Array(0..<10) + Array(160..<220))
        // Buffered IDs complete (or report the drop); the published events carry the IDs publish returned.
        #expect(publisher.waitUntilPublished(messageID: outageIDs.last!, timeout: .seconds(5)))
        #expect(!publisher.waitUntilPublished(messageID: outageIDs.first!, timeout: .milliseconds(10)))
        #expect(afterIDs.allSatisfy { publisher.waitUntilPublished(messageID: $0, timeout: .seconds(5)) })
        #expect(events.wait(for: "published", count: 10 + 50 + 10))
        let publishedIDs = Set(events.all.compactMap { event -> Int32? in
            if case .published(let id) = event { return id }
            return nil
        })
        #expect(publishedIDs.isSuperset(of: outageIDs.suffix(50)))
        #expect(publishedIDs.isDisjoint(with: outageIDs.prefix(150)))
        statistics = publisher.statistics
        #expect(statistics.bufferedMessages == 0 && statistics.bufferedBytes == 0)
        #expect(statistics.messagesPublished == 70)
        #expect(statistics.droppedFromBuffer == 150)  // nothing more: messages waiting behind the flush push nothing out
        publisher.shutdown(timeout: .seconds(1))
    }

    @Test("the byte bound drops the oldest until a new message fits; a message larger than the bound is refused")
    func byteBound() {
        var buffer = OfflineMessageBuffer(limits: MQTTOfflineBufferLimits(maximumMessages: 100, maximumBytes: 1_000))
        func entry(_ id: Int32, payloadBytes: Int) -> OfflineMessageBuffer.Entry {
            let message = MQTTMessage(topic: "t", payload: [UInt8](repeating: 1, count: payloadBytes), qos: .atLeastOnce)
            return .init(message: message, id: id, size: message.bufferedSize)
        }
        for id in 1...9 { #expect(buffer.append(entry(Int32(id), payloadBytes: 99)).isEmpty) }  // 9 × 100 bytes
        #expect(buffer.bytes == 900)
        let dropped = buffer.append(entry(10, payloadBytes: 299))  // 300 bytes: 2 oldest must go
        #expect(dropped.map(\.id) == [1, 2])
        #expect(buffer.bytes == 1_000 && buffer.count == 8 && buffer.first?.id == 3)
        #expect(buffer.append(entry(11, payloadBytes: 1_000)).map(\.id) == [11])  // 1001 bytes never fit
        #expect(buffer.count == 8)
        while !buffer.isEmpty { buffer.removeFirst() }
        #expect(buffer.bytes == 0)
    }
}

/// A value shared between threads, guarded by a mutex (a class, so closures can share it).
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) {
        mutex = Mutex(value)
    }

    func withLock<Result: Sendable>(_ body: (inout Value) -> Result) -> Result {
        mutex.withLock { body(&$0) }
    }

    var value: Value { mutex.withLock { $0 } }
}
