import Foundation
import MotionHAL
import MotionTestSupport
import Synchronization
import Testing

/// Records every event of a live device in arrival order, with the time it arrived.
final class TimedEventRecorder: Sendable {
    enum Entry: Sendable {
        case samples([IMUSample], arrival: UInt64)
        case fault(IMUDeviceError, arrival: UInt64)
    }

    private let entries = Mutex<[Entry]>([])
    private let now: @Sendable () -> UInt64

    /// A recorder that stamps arrivals with `now` (`CLOCK_MONOTONIC` by default).
    init(now: @escaping @Sendable () -> UInt64 = MonotonicClock.now) {
        self.now = now
    }

    var handler: @Sendable (IMUDeviceEvent) -> Void {
        { [self] event in
            let now = self.now()
            switch event {
            case .samples(let samples): entries.withLock { $0.append(.samples(samples, arrival: now)) }
            case .fault(let error): entries.withLock { $0.append(.fault(error, arrival: now)) }
            }
        }
    }

    var all: [Entry] { entries.withLock { $0 } }
}

@Suite struct SimulatedIMUFaultInjectionTests {
    @Test func faultThenOutageThenResumeWithLostSamples() throws {
        var configuration = SimulatedIMU.Configuration(sampleRate: 200, motion: .stationary(attitude: .identity))
        configuration.faultInjection = SimulatedFaultInjection(after: 0.2, duration: 0.3)
        let time = TestTime.manual()
        let device = SimulatedIMU(configuration: configuration, time: time.device)
        let recorder = TimedEventRecorder(now: time.nanosecondSource)
        let start = time.now
        try device.start(sampleRate: 200, handler: recorder.handler)
        time.pass(0.9)
        device.stop()

        let entries = recorder.all
        let faultPositions = entries.indices.filter { if case .fault = entries[$0] { true } else { false } }
        try #require(faultPositions.count == 1, "exactly one fault without fault_every")
        let position = faultPositions[0]
        guard case .fault(let error, let faultArrival) = entries[position] else { return }
        #expect(error == .readFailed("simulated fault"))
        // Arrives at the first delivery (every 10 ms) at or after 0.2 s.
        let faultTime = Double(faultArrival - start) / 1e9
        #expect(faultTime == 0.2, "fault at \(faultTime) s")

        let before = entries[..<position].flatMap { entry -> [IMUSample] in
            if case .samples(let samples, _) = entry { samples } else { [] }
        }
        let after = entries[(position + 1)...].flatMap { entry -> [IMUSample] in
            if case .samples(let samples, _) = entry { samples } else { [] }
        }
        let lastBefore = try #require(before.last).timestamp
        let firstAfter = try #require(after.first).timestamp
        // Every sample before the fault is stamped before it; the outage loses 0.3 s of samples: the gap in
        // timestamps is the outage (0.3 s) within one sample period (5 ms) either side.
        let gap = Double(firstAfter - lastBefore) / 1e9
        #expect(abs(gap - 0.3) <= 0.0051, "timestamp gap \(gap) s across the outage")
        // Nothing arrives during the outage: the first batch after the fault arrives ≥ 0.3 s after it.
        let firstArrivalAfter = entries[(position + 1)...].compactMap { entry -> UInt64? in
            if case .samples(_, let arrival) = entry { arrival } else { nil }
        }.first
        let silence = Double(try #require(firstArrivalAfter) - faultArrival) / 1e9
        #expect(silence >= 0.295, "silence \(silence) s")
        // On both sides of the outage the samples stay exactly 5 ms apart and strictly increasing.
        for run in [before, after] {
            #expect(zip(run, run.dropFirst()).allSatisfy { $1.timestamp - $0.timestamp == 5_000_000 })
        }
        // Samples keep their identity: the timestamp still encodes the sample index on the real clock.
        #expect((firstAfter - lastBefore) % 5_000_000 == 0)
    }

    @Test func faultEveryRepeats() throws {
        var configuration = SimulatedIMU.Configuration(sampleRate: 100, motion: .stationary(attitude: .identity))
        configuration.faultInjection = SimulatedFaultInjection(after: 0.1, duration: 0.05, every: 0.2)
        configuration.deliveryInterval = 0.005
        let time = TestTime.manual()
        let device = SimulatedIMU(configuration: configuration, time: time.device)
        let recorder = TimedEventRecorder(now: time.nanosecondSource)
        let start = time.now
        try device.start(sampleRate: 100, handler: recorder.handler)
        time.pass(0.75)
        device.stop()
        // Faults are due at 0.1, 0.3, 0.5 and 0.7 s, each delivered at the first tick at or after it.
        let arrivals = recorder.all.compactMap { entry -> Double? in
            if case .fault(_, let arrival) = entry { Double(arrival - start) / 1e9 } else { nil }
        }
        #expect(arrivals == [0.1, 0.3, 0.5, 0.7], "faults at \(arrivals) s")
    }

    @Test func batchIntervalSetsTheWakeUpPeriod() throws {
        var configuration = SimulatedIMU.Configuration(sampleRate: 200, motion: .stationary(attitude: .identity))
        configuration.deliveryInterval = 0.1
        let time = TestTime.manual()
        let device = SimulatedIMU(configuration: configuration, time: time.device)
        let recorder = TimedEventRecorder(now: time.nanosecondSource)
        try device.start(sampleRate: 200, handler: recorder.handler)
        time.pass(0.55)
        device.stop()
        let batches = recorder.all.compactMap { entry -> [IMUSample]? in
            if case .samples(let samples, _) = entry { samples } else { nil }
        }
        // 0.1 s wake-ups at 200 Hz: five in 0.55 s, each with the 20 samples stamped since the one before
        // (the first also has sample 0, stamped at the start). Under real load a late wake-up delivers
        // more and the next one less: SimulatedIMUTimingTests measures that on the real thread.
        #expect(batches.map(\.count) == [21, 20, 20, 20, 20], "\(batches.map(\.count))")
    }
}
