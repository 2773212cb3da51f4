import Foundation
import MotionHAL
import Synchronization
import Testing

/// Records every event of a live device in arrival order, with the time it arrived.
final class TimedEventRecorder: Sendable {
    enum Entry: Sendable {
        case samples([IMUSample], arrival: UInt64)
        case fault(IMUDeviceError, arrival: UInt64)
    }

    private let entries = Mutex<[Entry]>([])

    var handler: @Sendable (IMUDeviceEvent) -> Void {
        { [self] event in
            let now = MonotonicClock.now()
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
        let device = SimulatedIMU(configuration: configuration)
        let recorder = TimedEventRecorder()
        let start = MonotonicClock.now()
        try device.start(sampleRate: 200, handler: recorder.handler)
        Thread.sleep(forTimeInterval: 0.9)
        device.stop()

        let entries = recorder.all
        let faultPositions = entries.indices.filter { if case .fault = entries[$0] { true } else { false } }
        try #require(faultPositions.count == 1, "exactly one fault without fault_every")
        let position = faultPositions[0]
        guard case .fault(let error, let faultArrival) = entries[position] else { return }
        #expect(error == .readFailed("simulated fault"))
        // Arrives at ~0.2 s after start (timer granularity 10 ms; generous for a loaded machine).
        let faultTime = Double(faultArrival - start) / 1e9
        #expect(faultTime >= 0.2 && faultTime < 0.45, "fault at \(faultTime) s")

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
        let device = SimulatedIMU(configuration: configuration)
        let recorder = TimedEventRecorder()
        let started = ContinuousClock.now
        try device.start(sampleRate: 100, handler: recorder.handler)
        Thread.sleep(forTimeInterval: 0.75)
        device.stop()
        // The sleep can last longer on a loaded machine (other tests hold the threads): count by the clock.
        let elapsed = (ContinuousClock.now - started) / .seconds(1)
        let faults = recorder.all.filter { if case .fault = $0 { true } else { false } }
        // Faults are due at 0.1, 0.3, 0.5, … s: one per 0.2 s after the first (the last may be a tick late).
        let due = Int(((elapsed - 0.1) / 0.2).rounded(.down)) + 1
        #expect((due - 1...due).contains(faults.count), "\(faults.count) faults in \(elapsed) s")
    }

    @Test func batchIntervalSetsTheWakeUpPeriod() throws {
        var configuration = SimulatedIMU.Configuration(sampleRate: 200, motion: .stationary(attitude: .identity))
        configuration.deliveryInterval = 0.1
        let device = SimulatedIMU(configuration: configuration)
        let recorder = TimedEventRecorder()
        let started = ContinuousClock.now
        try device.start(sampleRate: 200, handler: recorder.handler)
        // A thread's sleep, not a task's: on a loaded machine the test's cooperative pool once kept a task
        // sleeping for 100 s.
        Thread.sleep(forTimeInterval: 0.55)
        device.stop()
        let elapsed = (ContinuousClock.now - started) / .seconds(1)
        let batches = recorder.all.compactMap { entry -> [IMUSample]? in
            if case .samples(let samples, _) = entry { samples } else { nil }
        }
        // 0.1 s wake-ups at 200 Hz: about 20 samples per batch, one batch per 0.1 s of the time that passed.
        let expected = Int((elapsed / 0.1).rounded(.down))
        #expect((expected - 1...expected + 1).contains(batches.count), "\(batches.count) batches in \(elapsed) s")
        // A wake-up the machine delays delivers what fell due meanwhile, and the next one less (24 then
        // 16): the period shows in the typical batch and in the mean, not in every batch.
        let sizes = batches.dropFirst().map(\.count).sorted()
        let median = sizes.isEmpty ? 0 : sizes[sizes.count / 2]
        let mean = sizes.isEmpty ? 0 : Double(sizes.reduce(0, +)) / Double(sizes.count)
        #expect(median == 20 && abs(mean - 20) <= 1.5, "\(batches.map(\.count))")
    }
}
