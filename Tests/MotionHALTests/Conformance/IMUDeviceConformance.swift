import Foundation
import MotionHAL
import MotionTestSupport
import Synchronization
import Testing

/// The contract every ``IMUDevice`` must keep (see its doc comment), checked the same way for every driver:
/// the simulator, replay, Linux IIO against a fake sysfs tree and each I²C chip against its emulation.
///
/// A driver's test suite calls ``check(_:expecting:rate:duration:)`` with a factory for a device whose
/// physical input is steady (a board at rest) and the values it should read.
enum IMUDeviceConformance {
    /// What a device at rest should read, in SI units, with the tolerance of each mean.
    struct Expectation: Sendable {
        /// Mean specific force, m/s² (at rest face up: (0, 0, +9.81)); `nil` for a device without one.
        var acceleration: SIMD3<Double>?
        /// Mean angular velocity, rad/s.
        var rotationRate: SIMD3<Double>?
        /// Mean magnetic flux density, µT.
        var magneticField: SIMD3<Double>?
        /// Largest allowed difference of each mean component, m/s².
        var accelerationTolerance = 0.05
        /// Largest allowed difference of each mean component, rad/s.
        var rotationRateTolerance = 0.005
        /// Largest allowed difference of each mean component, µT.
        var magneticFieldTolerance = 0.5
        /// Whether the samples must come in batches (hardware FIFO or buffer): on average at least 1.5 samples
        /// per delivery at rates of 100 Hz and more.
        var batches = true
    }

    /// Everything a device delivered during one run.
    final class Recorder: Sendable {
        private struct State {
            var batches: [(deliveredAt: UInt64, samples: [IMUSample])] = []
            var faults: [IMUDeviceError] = []
            var concurrentDeliveries = 0
            var deliveriesOnCallerThread = 0
        }
        private let state = Mutex(State())
        private let inside = Atomic<Int>(0)
        private let callerThread: UInt
        private let now: @Sendable () -> UInt64

        /// A recorder that notes each delivery's time from `now` (`CLOCK_MONOTONIC` by default).
        init(now: @escaping @Sendable () -> UInt64 = MonotonicClock.now) {
            callerThread = UInt(bitPattern: Int(pthread_self()))
            self.now = now
        }

        var batches: [(deliveredAt: UInt64, samples: [IMUSample])] { state.withLock { $0.batches } }
        var samples: [IMUSample] { state.withLock { $0.batches.flatMap(\.samples) } }
        var faults: [IMUDeviceError] { state.withLock { $0.faults } }
        var concurrentDeliveries: Int { state.withLock { $0.concurrentDeliveries } }
        var deliveriesOnCallerThread: Int { state.withLock { $0.deliveriesOnCallerThread } }
        var eventCount: Int { state.withLock { $0.batches.count + $0.faults.count } }

        var handler: @Sendable (IMUDeviceEvent) -> Void {
            { event in
                let overlapping = self.inside.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue > 0
                defer { self.inside.wrappingSubtract(1, ordering: .acquiringAndReleasing) }
                let now = self.now()
                let onCaller = UInt(bitPattern: Int(pthread_self())) == self.callerThread
                self.state.withLock { state in
                    if overlapping { state.concurrentDeliveries += 1 }
                    if onCaller { state.deliveriesOnCallerThread += 1 }
                    switch event {
                    case .samples(let samples): state.batches.append((now, samples))
                    case .fault(let fault): state.faults.append(fault)
                    }
                }
            }
        }
    }

    /// Runs the conformance checks on devices made by `makeDevice` (called once; the device is started
    /// twice).
    /// - Parameters:
    ///   - makeDevice: opens the device under test, not started.
    ///   - expected: what the device should read.
    ///   - rate: the rate to run at, Hz; the device's default when `nil`.
    ///   - duration: how long each run collects, s.
    ///   - time: the time the device runs on (a manual clock's runs the device's polls on the test's thread
    ///     while it advances, so that check is left out).
    static func check(
        _ makeDevice: () throws -> any IMUDevice, expecting expected: Expectation, rate: Double? = nil,
        duration: Double = 0.6, time: TestTime = .real, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let device = try makeDevice()
        let info = device.info
        #expect(!info.driver.isEmpty && !info.chip.isEmpty, "driver and chip named", sourceLocation: sourceLocation)
        #expect(!info.sensors.isEmpty, "at least one sensor", sourceLocation: sourceLocation)
        #expect(info.supportedSampleRates.lowerBound > 0, sourceLocation: sourceLocation)
        #expect(info.supportedSampleRates.contains(info.defaultSampleRate), sourceLocation: sourceLocation)
        #expect(info.sensors.contains(.accelerometer) == (expected.acceleration != nil), sourceLocation: sourceLocation)
        #expect(info.sensors.contains(.gyroscope) == (expected.rotationRate != nil), sourceLocation: sourceLocation)
        #expect(info.sensors.contains(.magnetometer) == (expected.magneticField != nil), sourceLocation: sourceLocation)

        // A rate the device cannot run at is refused, not silently changed.
        let tooFast = info.supportedSampleRates.upperBound * 2 + 1
        if tooFast.isFinite {
            #expect(throws: IMUDeviceError.unsupportedSampleRate(tooFast), sourceLocation: sourceLocation) {
                try device.start(sampleRate: tooFast) { _ in }
            }
        }

        let sampleRate = rate ?? info.defaultSampleRate
        for run in 1...2 {
            let recorder = Recorder(now: time.nanosecondSource)
            let startCalled = time.now
            try device.start(sampleRate: sampleRate, handler: recorder.handler)
            // A chip's start (reset, settling) may take a while; the rate counts from when it returned.
            let started = time.now
            #expect(throws: IMUDeviceError.alreadyRunning, sourceLocation: sourceLocation) {
                try device.start(sampleRate: sampleRate) { _ in }
            }
            time.pass(duration)
            device.stop()
            device.stop()  // idempotent
            let stopped = time.now
            let eventsAtStop = recorder.eventCount
            time.pass(0.1)
            #expect(recorder.eventCount == eventsAtStop, "run \(run): an event after stop returned", sourceLocation: sourceLocation)
            #expect(recorder.faults.isEmpty, "run \(run): faults \(recorder.faults)", sourceLocation: sourceLocation)
            #expect(recorder.concurrentDeliveries == 0, "run \(run): two deliveries at once", sourceLocation: sourceLocation)
            if time.clock == nil {
                #expect(recorder.deliveriesOnCallerThread == 0, "run \(run): delivered on the caller's thread", sourceLocation: sourceLocation)
            }
            checkTiming(
                recorder, rate: sampleRate, startCalled: startCalled, started: started, stopped: stopped, expected: expected,
                run: run, sourceLocation: sourceLocation)
            checkValues(recorder.samples, sensors: info.sensors, expected: expected, run: run, sourceLocation: sourceLocation)
        }
    }

    private static func checkTiming(
        _ recorder: Recorder, rate: Double, startCalled: UInt64, started: UInt64, stopped: UInt64, expected: Expectation, run: Int,
        sourceLocation: SourceLocation
    ) {
        let batches = recorder.batches
        let samples = batches.flatMap(\.samples)
        let seconds = Double(stopped - started) / 1e9
        #expect(!batches.contains { $0.samples.isEmpty }, "run \(run): an empty batch", sourceLocation: sourceLocation)
        // The count matches the rate (a delivery's worth of latency at either end allowed).
        let expectedCount = rate * seconds
        #expect(
            Double(samples.count) > expectedCount * 0.85 - 0.05 * rate && Double(samples.count) < expectedCount * 1.1 + 2,
            "run \(run): \(samples.count) samples in \(seconds) s at \(rate) Hz", sourceLocation: sourceLocation)
        guard samples.count >= 3 else { return }
        // Timestamps: strictly increasing, spaced by the sample period, between start and delivery.
        let period = 1e9 / rate
        var increasing = true
        var spacings: [Double] = []
        for (previous, next) in zip(samples, samples.dropFirst()) {
            if next.timestamp <= previous.timestamp { increasing = false }
            spacings.append(Double(next.timestamp &- previous.timestamp))
        }
        #expect(increasing, "run \(run): timestamps not strictly increasing", sourceLocation: sourceLocation)
        spacings.sort()
        let median = spacings[spacings.count / 2]
        #expect(abs(median - period) < 0.05 * period, "run \(run): median spacing \(median) ns, period \(period) ns", sourceLocation: sourceLocation)
        #expect(Double(samples[0].timestamp) > Double(startCalled) - 2 * period, "run \(run): first sample stamped before start", sourceLocation: sourceLocation)
        for batch in batches {
            #expect(batch.samples.last!.timestamp <= batch.deliveredAt, "run \(run): a sample stamped after its delivery", sourceLocation: sourceLocation)
        }
        if expected.batches && rate >= 100 {
            #expect(batches.count * 3 <= samples.count * 2, "run \(run): \(batches.count) deliveries for \(samples.count) samples", sourceLocation: sourceLocation)
        }
    }

    private static func checkValues(
        _ samples: [IMUSample], sensors: IMUSensors, expected: Expectation, run: Int, sourceLocation: SourceLocation
    ) {
        guard !samples.isEmpty else { return }
        func check(_ values: [SIMD3<Double>?], _ expected: SIMD3<Double>?, _ tolerance: Double, _ name: String, everySample: Bool) {
            let present = values.compactMap { $0 }
            guard let expected else {
                #expect(present.isEmpty, "run \(run): \(name) values from a device without one", sourceLocation: sourceLocation)
                return
            }
            if everySample {
                #expect(present.count == values.count, "run \(run): \(values.count - present.count) samples without \(name)", sourceLocation: sourceLocation)
            } else {
                #expect(!present.isEmpty, "run \(run): no \(name) values", sourceLocation: sourceLocation)
            }
            #expect(present.allSatisfy { $0.x.isFinite && $0.y.isFinite && $0.z.isFinite }, "run \(run): \(name) not finite", sourceLocation: sourceLocation)
            guard !present.isEmpty else { return }
            let mean = present.reduce(SIMD3<Double>(repeating: 0), +) / Double(present.count)
            let difference = mean - expected
            let worst = max(abs(difference.x), abs(difference.y), abs(difference.z))
            #expect(worst <= tolerance, "run \(run): mean \(name) \(mean), expected \(expected) ± \(tolerance)", sourceLocation: sourceLocation)
        }
        // Accelerometer and gyroscope are in every sample; a magnetometer may run slower.
        check(samples.map(\.acceleration), expected.acceleration, expected.accelerationTolerance, "acceleration", everySample: true)
        check(samples.map(\.rotationRate), expected.rotationRate, expected.rotationRateTolerance, "rotation rate", everySample: true)
        check(samples.map(\.magneticField), expected.magneticField, expected.magneticFieldTolerance, "magnetic field", everySample: false)
    }
}

/// The simulator and replay keep the device contract too.
@Suite struct BuiltInDeviceConformanceTests {
    @Test func simulatorAtRest() throws {
        guard case .simulated(let configuration) = try IMUDeviceSpecification.parse("sim:motion=stationary") else {
            Issue.record("\"sim:motion=stationary\" is not the simulator")
            return
        }
        let time = TestTime.manual()
        try IMUDeviceConformance.check(
            { SimulatedIMU(configuration: configuration, time: time.device) },
            expecting: .init(
                acceleration: SIMD3(0, 0, 9.81), rotationRate: SIMD3(0.005, -0.008, 0.003),
                magneticField: SIMD3(0, 19.5, -44.5)),
            time: time)
    }

    @Test func replay() throws {
        let recording = ReplayIMUTests.broadExcerpt
        let samples = try IMURecording.load(contentsOf: recording).samples.prefix(200)
        func mean(_ values: [SIMD3<Double>?]) -> SIMD3<Double> {
            values.compactMap { $0 }.reduce(SIMD3<Double>(repeating: 0), +) / Double(values.count)
        }
        // The excerpt's first seconds are nearly still: the means of its first 0.7 s, with the motion's spread.
        let time = TestTime.manual()
        try IMUDeviceConformance.check(
            { try ReplayIMU(path: recording, time: time.device) },
            expecting: .init(
                acceleration: mean(samples.map(\.acceleration)), rotationRate: mean(samples.map(\.rotationRate)),
                magneticField: mean(samples.map(\.magneticField)),
                accelerationTolerance: 0.3, rotationRateTolerance: 0.05, magneticFieldTolerance: 2),
            time: time)
    }
}
