import Dispatch
import Foundation
import MQTT
import MotionTestSupport
import Synchronization
import Testing

/// Several threads using one client at once, and shutting down while they do.
@Suite("MQTTClient from several threads")
struct MQTTClientConcurrencyTests {
    @Test("4 threads × 250 publications (QoS 0 and 1 alternating): each completes and arrives once, in order per QoS")
    func concurrentPublishers() throws {
        let broker = try MosquittoBroker()  // max_queued_messages 0: the broker drops nothing
        let subscriber = try RecordingSubscriber(broker: broker.address, topicFilters: ["burst/+"])
        let client = try MQTTClient(configuration: .init(broker: broker.address, clientID: "burst")) { _ in }
        try client.start()
        #expect(client.waitUntilConnected(timeout: .seconds(5)))

        let threads = 4, perThread = 250
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for index in 0..<perThread {
                do {
                    let qos: MQTTQoS = index.isMultiple(of: 2) ? .atLeastOnce : .atMostOnce
                    let messageID = try client.publish(MQTTMessage(topic: "burst/\(thread)", string: "\(index)", qos: qos))
                    if index.isMultiple(of: 50), !client.waitUntilPublished(messageID: messageID, timeout: .seconds(5)) {
                        failures.withLock { $0.append("message \(messageID) not completed") }
                    }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
        for thread in 0..<threads {
            #expect(subscriber.waitForCount(on: "burst/\(thread)", count: perThread))
            let received = subscriber.messages(on: "burst/\(thread)")
            let indices = received.map { Int($0.payloadString)! }
            #expect(indices.sorted() == Array(0..<perThread))  // each exactly once
            // MQTT keeps the order of one publisher's messages of the same QoS; QoS 1 may be overtaken
            // by QoS 0 while it waits in libmosquitto's in-flight window.
            for qos in [MQTTQoS.atMostOnce, .atLeastOnce] {
                let sameQoS = received.filter { $0.qos == qos }.map { Int($0.payloadString)! }
                #expect(sameQoS == sameQoS.sorted(), "order of QoS \(qos.rawValue) on burst/\(thread)")
                #expect(sameQoS.count == perThread / 2)
            }
        }
        client.shutdown(timeout: .seconds(2))
    }

    @Test("a burst far larger than the socket buffer: what the publishing thread cannot write, the network thread does; all arrives intact")
    func burstLargerThanTheSocketBuffer() throws {
        let broker = try MosquittoBroker()
        let subscriber = try RecordingSubscriber(broker: broker.address, topicFilters: ["large/+"])
        let client = try MQTTClient(configuration: .init(broker: broker.address, clientID: "large")) { _ in }
        try client.start()
        #expect(client.waitUntilConnected(timeout: .seconds(5)))

        // 60 × 256 KiB = 15 MiB published without waiting: the socket takes a few hundred KiB at a
        // time, so most writes must be finished by the network thread after the publish calls return.
        let count = 60, size = 256 * 1024
        var lastID: Int32 = 0
        for index in 0..<count {
            let payload = [UInt8](repeating: UInt8(index), count: size)
            lastID = try client.publish(MQTTMessage(topic: "large/\(index % 2)", payload: payload, qos: .atMostOnce))
        }
        #expect(client.waitUntilPublished(messageID: lastID, timeout: .seconds(10)))
        #expect(subscriber.waitForCount(on: "large/0", count: count / 2, timeout: .seconds(10)))
        #expect(subscriber.waitForCount(on: "large/1", count: count / 2, timeout: .seconds(10)))
        for parity in 0..<2 {
            let received = subscriber.messages(on: "large/\(parity)")
            #expect(received.map { Int($0.payload.first ?? 255) } == Array(stride(from: parity, to: count, by: 2)))
            #expect(received.allSatisfy { $0.payload.count == size && Set($0.payload).count == 1 })
        }
        client.shutdown(timeout: .seconds(2))
    }

    @Test("shutting down while other threads publish: they get errors, nothing crashes, the will stays unsent")
    func shutdownDuringPublishing() throws {
        let broker = try MosquittoBroker()
        let watcher = try RecordingSubscriber(broker: broker.address, topicFilters: ["race/status"])
        let will = MQTTMessage(topic: "race/status", string: "offline", qos: .atLeastOnce, retain: true)
        let client = try MQTTClient(configuration: .init(broker: broker.address, clientID: "racer", will: will)) { _ in }
        try client.start()
        #expect(client.waitUntilConnected(timeout: .seconds(5)))

        // Three publisher threads run until their publish is refused; shutdown comes once they are busy.
        let published = Atomic<Int>(0)
        let refused = Atomic<Int>(0)
        let publishers = DispatchGroup()
        for worker in 0..<3 {
            DispatchQueue.global().async(group: publishers) {
                while true {
                    do {
                        try client.publish(MQTTMessage(topic: "race/\(worker)", string: "x"))
                        published.add(1, ordering: .relaxed)
                    } catch {
                        refused.add(1, ordering: .relaxed)
                        return
                    }
                }
            }
        }
        #expect(eventually(within: .seconds(5)) { published.load(ordering: .relaxed) >= 300 })
        client.shutdown(timeout: .seconds(2))
        #expect(publishers.wait(timeout: .now() + 5) == .success)
        #expect(refused.load(ordering: .relaxed) == 3)
        #expect(broker.waitForLog(containing: "Client racer disconnected."), "\(broker.log())")
        try watcher.synchronize()
        #expect(watcher.messages(on: "race/status").isEmpty)
    }
}
