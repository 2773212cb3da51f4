import Foundation
import MQTT
import MotionTestSupport
import Synchronization
import Testing

/// The reconnect schedule (exponential, per-client jitter) as a function, and as the client follows it.
@Suite("Reconnect backoff")
struct MQTTReconnectBackoffTests {
    private let fleet = (0..<200).map { String(format: "pi-%03d", $0) }

    @Test("distinct client IDs get distinct first delays spread over [min, 2.4·min]; the same ID always the same schedule")
    func perClientJitter() {
        let first = fleet.map { MQTTReconnectBackoff(minimumDelay: 1, maximumDelay: 30, clientID: $0).delay(afterFailedAttempts: 1) }
        #expect(Set(first).count == fleet.count)
        #expect(first.allSatisfy { (1.0...2.4).contains($0) })
        // Spread: the fleet covers most of the window, in 0.2 s bins at least 6 of 7 are used.
        let bins = Set(first.map { Int(($0 - 1) / 0.2) })
        #expect(bins.count >= 6, "\(bins.sorted())")
        let again = MQTTReconnectBackoff(minimumDelay: 1, maximumDelay: 30, clientID: "pi-007")
        #expect((1...12).map(again.delay(afterFailedAttempts:)) == (1...12).map(MQTTReconnectBackoff(minimumDelay: 1, maximumDelay: 30, clientID: "pi-007").delay(afterFailedAttempts:)))
    }

    @Test("each delay is the doubled base times a factor in [0.8, 1.2]; near the bounds it stays inside without piling up")
    func closedForm() {
        var factors: [Double] = []
        var atMaximum: [Double] = []
        for id in fleet {
            let schedule = MQTTReconnectBackoff(minimumDelay: 0.5, maximumDelay: 20, clientID: id)
            #expect((0.5..<1.0).contains(schedule.baseDelay))
            for attempt in 1...15 {
                let nominal = schedule.baseDelay * pow(2, Double(attempt - 1))
                let delay = schedule.delay(afterFailedAttempts: attempt)
                #expect((0.5...20).contains(delay))
                if nominal * 0.8 >= 0.5, nominal * 1.2 <= 20 { factors.append(delay / nominal) }  // bounds cannot interfere
                if nominal * 0.8 > 20 { atMaximum.append(delay) }
            }
        }
        #expect(factors.allSatisfy { (0.8 - 1e-12...1.2 + 1e-12).contains($0) })
        // The jitter is centred and fills its range.
        let mean = factors.reduce(0, +) / Double(factors.count)
        #expect(abs(mean - 1) < 0.02, "mean factor \(mean) of \(factors.count)")
        #expect(factors.min()! < 0.82 && factors.max()! > 1.18)
        // At the cap: spread over (16, 20], not a pile at exactly 20 s.
        #expect(atMaximum.allSatisfy { $0 > 16 && $0 <= 20 })
        #expect(Double(atMaximum.filter { $0 == 20 }.count) < 0.01 * Double(atMaximum.count))
        #expect(Set(atMaximum.map { Int($0) }).count == 4)  // 16, 17, 18, 19 s bins all used
    }

    @Test("delays grow (about doubling) until they reach max, then stay in [0.8·max, max]")
    func growsToMaximum() {
        for id in fleet.prefix(50) {
            let schedule = MQTTReconnectBackoff(minimumDelay: 1, maximumDelay: 30, clientID: id)
            let delays = (1...12).map(schedule.delay(afterFailedAttempts:))
            // Uncapped: ratio of consecutive delays is 2 × (jitter ratio) ∈ [2·0.8/1.2, 2·1.2/0.8].
            for n in 1..<3 { #expect((4.0 / 3 - 1e-9...3.0 + 1e-9).contains(delays[n + 1] / delays[n]), "\(id): \(delays)") }
            // b·2^(n−1) ≥ 30 from n = 6 at the latest (b ≥ 1): capped from there on.
            #expect(delays[5...].allSatisfy { (24.0...30.0).contains($0) }, "\(id): \(delays)")
        }
        // min == max: a constant delay.
        let constant = MQTTReconnectBackoff(minimumDelay: 2, maximumDelay: 2, clientID: "c")
        #expect((1...5).map(constant.delay(afterFailedAttempts:)) == [2, 2, 2, 2, 2])
    }

    @Test("the client waits exactly the schedule's delays between failed attempts (broker down), on its clock")
    func clientFollowsSchedule() throws {
        let broker = try MosquittoBroker()
        broker.stop()
        let clock = ManualClock()
        let failures = Atomic<Int>(0)
        var configuration = MQTTClientConfiguration(broker: broker.address, clientID: "schedule-follower", reconnectDelay: 1...30)
        configuration.clock = clock
        let client = try MQTTClient(configuration: configuration) { event in
            if case .disconnected = event { failures.add(1, ordering: .relaxed) }
        }
        try client.start()
        defer { client.shutdown(timeout: .seconds(1)) }
        let schedule = configuration.reconnectBackoff
        for attempt in 1...5 {
            // The refused attempt is reported and the network thread waits on the clock for the next one.
            let waiting = eventually(within: .seconds(5)) {
                failures.load(ordering: .relaxed) == attempt && clock.pendingDelays.count == 1
            }
            try #require(waiting, "attempt \(attempt): \(failures.load(ordering: .relaxed)) failures, waits \(clock.pendingDelays)")
            let delay = try #require(clock.pendingDelays.first)
            #expect(abs(delay - schedule.delay(afterFailedAttempts: attempt)) < 1e-6, "attempt \(attempt): \(delay) s")
            clock.advance(by: delay - 0.001)
            #expect(failures.load(ordering: .relaxed) == attempt && clock.pendingDelays.count == 1, "not before it is due")
            clock.advance(by: 0.001)
        }
    }

    @Test("with default settings the client is back within 3 s of the broker's return after a restart; reconnects counts it")
    func reconnectsQuicklyAfterRestart() throws {
        let broker = try MosquittoBroker()
        let events = EventLog()
        let client = try TestClient.connected(to: broker.address, clientID: "restart-default", configure: { $0.reconnectDelay = 1...30 }, events: events)
        #expect(client.statistics.reconnects == 0)
        broker.stop()
        #expect(events.wait(for: "disconnected"))
        usleep(300_000)  // down for a moment
        try broker.restart()
        let back = ContinuousClock.now
        #expect(client.waitUntilConnected(timeout: .seconds(3)))
        let took = back.duration(to: .now)
        #expect(took < .seconds(3), "reconnected \(took) after the broker returned")
        #expect(client.statistics.reconnects == 1)
        print("reconnected \(took) after the broker returned (first retry delay \(client.configuration.reconnectBackoff.delay(afterFailedAttempts: 1)) s)")
        client.shutdown(timeout: .seconds(1))
    }
}
