import MotionHAL
import MotionTestSupport
import Synchronization
import Testing

/// Collects what a device delivers, from the device's queue.
final class EventRecorder: Sendable {
    private let batches = Mutex<[[IMUSample]]>([])
    private let faults = Mutex<[IMUDeviceError]>([])

    /// The handler to give the device.
    var handler: @Sendable (IMUDeviceEvent) -> Void {
        { [self] event in
            switch event {
            case .samples(let samples): batches.withLock { $0.append(samples) }
            case .fault(let error): faults.withLock { $0.append(error) }
            }
        }
    }

    var recordedBatches: [[IMUSample]] { batches.withLock { $0 } }
    var recordedSamples: [IMUSample] { recordedBatches.flatMap { $0 } }
    var recordedFaults: [IMUDeviceError] { faults.withLock { $0 } }
}

@Suite struct SimulatedIMUTimingTests {
    @Test func timestampsAreExactlySpacedAt200Hz() {
        let start: UInt64 = 123_456_789
        let samples = SimulatedIMU().samples(count: 1000, sampleRate: 200, startTimestamp: start)
        #expect(samples[0].timestamp == start)
        #expect(zip(samples, samples.dropFirst()).allSatisfy { $1.timestamp - $0.timestamp == 5_000_000 })
        #expect(samples[999].timestamp == start + 999 * 5_000_000)
    }

    @Test(arguments: [1.0, 300, 1000, 2000, 8000])
    func timestampsFollowIndexOverRateWithoutDrift(rate: Double) {
        let device = SimulatedIMU()
        let count = Int(rate) * 2 + 1
        let samples = device.samples(count: count, sampleRate: rate, startTimestamp: 1_000)
        #expect(zip(samples, samples.dropFirst()).allSatisfy { $1.timestamp > $0.timestamp })
        // Spacing differs from 10⁹/rate ns by rounding only, and sample `rate` lands exactly one second in.
        let nominal = 1e9 / rate
        let spacings = zip(samples, samples.dropFirst()).map { Double($1.timestamp - $0.timestamp) }
        #expect(spacings.allSatisfy { abs($0 - nominal) <= 1 })
        #expect(samples[Int(rate)].timestamp == 1_000 + 1_000_000_000)
        #expect(samples[count - 1].timestamp == 1_000 + 2_000_000_000)
    }

    @Test func infoDescribesTheSimulator() {
        let info = SimulatedIMU(configuration: .init(sampleRate: 500)).info
        #expect(info.driver == "sim")
        #expect(info.chip == "simulated 9-axis IMU")
        #expect(info.sensors == .all)
        #expect(info.supportedSampleRates == 1...8000)
        #expect(info.defaultSampleRate == 500)
        #expect(SimulatedIMU().info.defaultSampleRate == 200)
    }

    @Test(arguments: [0, 0.5, 8000.5, -200, .nan, .infinity])
    func unsupportedRatesAreRefused(rate: Double) {
        let device = SimulatedIMU()
        #expect {
            try device.start(sampleRate: rate) { _ in }
        } throws: { error in
            guard case .unsupportedSampleRate(let refused) = error as? IMUDeviceError else { return false }
            return refused == rate || (refused.isNaN && rate.isNaN)
        }
        device.stop()
    }

    @Test func startingTwiceThrowsAlreadyRunning() throws {
        let device = SimulatedIMU()
        device.stop()  // stopping an idle device is harmless
        try device.start(sampleRate: 200) { _ in }
        #expect(throws: IMUDeviceError.alreadyRunning) { try device.start(sampleRate: 100) { _ in } }
        device.stop()
        device.stop()
    }

    @Test func liveDeliveryAt200HzBatchesExactSamplesAndStopsCleanly() async throws {
        let device = SimulatedIMU()
        let recorder = EventRecorder()
        let started = MonotonicClock.now()
        try device.start(sampleRate: 200, handler: recorder.handler)
        #expect(eventually(within: .seconds(10)) { recorder.recordedSamples.count >= 100 })
        device.stop()
        let stopped = MonotonicClock.now()

        let batches = recorder.recordedBatches
        let samples = batches.flatMap { $0 }
        // 100 samples (≈ 0.5 s at 200 Hz) or a few more: never more than the elapsed time allows (one per
        // 5 ms plus the one at t0), and at most 20 (100 ms of delivery lag on a loaded machine) fewer.
        let due = Double(stopped - started) / 5e6 + 1
        #expect(samples.count >= 100 && Double(samples.count) >= due - 20, "got \(samples.count) of \(due) due")
        #expect(Double(samples.count) <= due, "got \(samples.count) of \(due) due")
        // Only samples whose time had come.
        #expect(samples.allSatisfy { $0.timestamp >= started && $0.timestamp <= stopped })
        // Batched (about two samples per 10 ms wake-up), not one event per sample, nor one at the end.
        #expect(batches.count < samples.count)
        #expect(batches.count >= 10)
        #expect(batches.allSatisfy { !$0.isEmpty })
        // Strictly increasing, exactly 5 ms apart, and exactly the clock-free samples of the same run.
        #expect(zip(samples, samples.dropFirst()).allSatisfy { $1.timestamp - $0.timestamp == 5_000_000 })
        if let first = samples.first {
            #expect(samples == device.samples(count: samples.count, sampleRate: 200, startTimestamp: first.timestamp))
        }
        #expect(recorder.recordedFaults.isEmpty)

        // Nothing arrives after stop returned.
        try await Task.sleep(for: .milliseconds(100))
        #expect(recorder.recordedSamples.count == samples.count)

        // A restart begins a new run from trajectory time 0 with fresh timestamps.
        let secondRecorder = EventRecorder()
        let restarted = MonotonicClock.now()
        try device.start(sampleRate: 100, handler: secondRecorder.handler)
        #expect(eventually(within: .seconds(10)) { secondRecorder.recordedSamples.count >= 20 })
        device.stop()
        let secondDue = Double(MonotonicClock.now() - restarted) / 1e7 + 1
        let second = secondRecorder.recordedSamples
        // 20 samples (≈ 0.2 s at 100 Hz) or a few more, never more than were due.
        #expect(second.count >= 20 && Double(second.count) <= secondDue, "got \(second.count) of \(secondDue) due")
        if let first = second.first {
            #expect(first.timestamp > stopped)
            #expect(first == device.sample(index: 0, sampleRate: 100, startTimestamp: first.timestamp))
        }
        #expect(recorder.recordedSamples.count == samples.count)
    }

    @Test func stopFromInsideTheHandlerEndsDelivery() async throws {
        let device = SimulatedIMU()
        let batchesSeen = Atomic<Int>(0)
        try device.start(sampleRate: 1000) { [device] _ in
            batchesSeen.add(1, ordering: .relaxed)
            device.stop()
        }
        try await Task.sleep(for: .milliseconds(150))
        #expect(batchesSeen.load(ordering: .relaxed) == 1)
        // The device can start again afterwards.
        try device.start(sampleRate: 1000) { _ in }
        device.stop()
    }
}
