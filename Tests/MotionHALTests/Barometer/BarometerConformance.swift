import Foundation
import MotionHAL
import Synchronization
import MotionTestSupport
import Testing

/// The contract every ``BarometerDevice`` must keep (see its doc comment), checked the same way for every
/// barometer: the simulator, Linux IIO against a fake sysfs tree and each I²C chip against its emulation.
///
/// A test calls ``check(_:expecting:faults:duration:sourceLocation:)`` with a factory for a device whose air
/// is still and the values it should read, and, where the test can break the hardware, the means to.
enum BarometerConformance {
    /// What a device in still air should read.
    struct Expectation: Sendable {
        /// The true pressure, Pa.
        var pressure: Double
        /// Largest allowed difference of the mean pressure, Pa.
        var pressureTolerance = 1.0
        /// The device's noise, Pa (1 σ): a single reading may differ by the tolerance plus five of these.
        var pressureNoise = 0.0
        /// The true temperature, °C; `nil` for a device without one.
        var temperature: Double?
        /// Largest allowed difference of the mean temperature, °C.
        var temperatureTolerance = 0.05
    }

    /// How a test breaks and mends the hardware under the device.
    struct Faults {
        /// Makes reads fail for a while (a bus error, an unreadable attribute).
        var breakReads: () -> Void
        /// Makes reads work again (nothing to do for a failure that was one transfer).
        var repairReads: () -> Void = {}
        /// Takes the device away (unplugged, no longer answering).
        var vanish: () -> Void
        /// Puts it back.
        var reappear: () -> Void
    }

    /// Everything a device delivered, and a way to wait for it.
    final class Recorder: Sendable {
        private struct State {
            var batches: [(deliveredAt: UInt64, readings: [PressureReading])] = []
            var faults: [IMUDeviceError] = []
            var readingsBeforeFault: [Int] = []
            var concurrentDeliveries = 0
            var deliveriesOnCallerThread = 0
        }
        private let state = Mutex(State())
        private let inside = Atomic<Int>(0)
        private let callerThread = UInt(bitPattern: Int(pthread_self()))
        private let time: TestTime

        /// A recorder that notes each delivery's time on `time`, and waits on it.
        init(time: TestTime) {
            self.time = time
        }

        var batches: [(deliveredAt: UInt64, readings: [PressureReading])] { state.withLock { $0.batches } }
        var readings: [PressureReading] { state.withLock { $0.batches.flatMap(\.readings) } }
        var faults: [IMUDeviceError] { state.withLock { $0.faults } }
        var eventCount: Int { state.withLock { $0.batches.count + $0.faults.count } }
        var concurrentDeliveries: Int { state.withLock { $0.concurrentDeliveries } }
        var deliveriesOnCallerThread: Int { state.withLock { $0.deliveriesOnCallerThread } }
        /// The number of readings delivered before each fault.
        var readingsBeforeFault: [Int] { state.withLock { $0.readingsBeforeFault } }

        var handler: @Sendable (BarometerEvent) -> Void {
            { event in
                let overlapping = self.inside.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue > 0
                defer { self.inside.wrappingSubtract(1, ordering: .acquiringAndReleasing) }
                let now = self.time.now
                let onCaller = UInt(bitPattern: Int(pthread_self())) == self.callerThread
                self.state.withLock { state in
                    if overlapping { state.concurrentDeliveries += 1 }
                    if onCaller { state.deliveriesOnCallerThread += 1 }
                    switch event {
                    case .readings(let readings): state.batches.append((now, readings))
                    case .fault(let fault):
                        state.faults.append(fault)
                        state.readingsBeforeFault.append(state.batches.reduce(0) { $0 + $1.readings.count })
                    }
                }
            }
        }

        /// Lets up to `timeout` seconds pass until `condition` holds; returns whether it did.
        @discardableResult
        func wait(timeout: Double = 1, until condition: (Recorder) -> Bool) -> Bool {
            let deadline = time.now + MonotonicClock.nanoseconds(timeout)
            while !condition(self) {
                guard time.now < deadline else { return false }
                time.pass(0.002)
            }
            return true
        }
    }

    /// Runs the checks on the device `makeDevice` opens (called once): two runs at the default rate, then,
    /// with `faults`, a transient failure and a disappearance at a fast rate.
    static func check(
        _ makeDevice: () throws -> any BarometerDevice, expecting expected: Expectation, faults: Faults? = nil,
        duration: Double = 0.4, time: TestTime = .real, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let device = try makeDevice()
        let info = device.info
        #expect(!info.driver.isEmpty && !info.chip.isEmpty, "driver and chip named", sourceLocation: sourceLocation)
        #expect(info.supportedSampleRates.lowerBound > 0, sourceLocation: sourceLocation)
        #expect(info.supportedSampleRates.contains(info.defaultSampleRate), sourceLocation: sourceLocation)
        #expect(info.hasTemperature == (expected.temperature != nil), sourceLocation: sourceLocation)

        // A rate the device cannot run at is refused, not silently changed.
        for unsupported in [info.supportedSampleRates.upperBound * 2 + 1, info.supportedSampleRates.lowerBound / 2, .nan] {
            let error = expectError(IMUDeviceError.self, sourceLocation: sourceLocation) {
                try device.start(sampleRate: unsupported) { _ in }
            }
            if case .unsupportedSampleRate = error {} else { Issue.record("\(unsupported) Hz: \(String(describing: error))", sourceLocation: sourceLocation) }
        }

        let rate = info.defaultSampleRate
        for run in 1...2 {
            let recorder = Recorder(time: time)
            let startCalled = time.now
            try device.start(sampleRate: rate, handler: recorder.handler)
            let started = time.now
            #expect(throws: IMUDeviceError.alreadyRunning, sourceLocation: sourceLocation) {
                try device.start(sampleRate: rate) { _ in }
            }
            time.pass(duration)
            device.stop()
            device.stop()  // idempotent
            let stopped = time.now
            let eventsAtStop = recorder.eventCount
            time.pass(0.06)
            #expect(recorder.eventCount == eventsAtStop, "run \(run): an event after stop returned", sourceLocation: sourceLocation)
            #expect(recorder.faults.isEmpty, "run \(run): faults \(recorder.faults)", sourceLocation: sourceLocation)
            #expect(recorder.concurrentDeliveries == 0, "run \(run): two deliveries at once", sourceLocation: sourceLocation)
            // On a manual clock the polls run on the test's thread while it advances the clock.
            if time.clock == nil {
                #expect(recorder.deliveriesOnCallerThread == 0, "run \(run): delivered on the caller's thread", sourceLocation: sourceLocation)
            }
            checkTiming(recorder, rate: rate, startCalled: startCalled, seconds: Double(stopped - started) / 1e9, run: run, sourceLocation)
            checkValues(recorder.readings, expected: expected, run: run, sourceLocation)
        }
        if let faults { try checkFaults(device, faults, time, sourceLocation) }
    }

    private static func checkTiming(
        _ recorder: Recorder, rate: Double, startCalled: UInt64, seconds: Double, run: Int, _ sourceLocation: SourceLocation
    ) {
        let batches = recorder.batches
        let readings = batches.flatMap(\.readings)
        #expect(!batches.contains { $0.readings.isEmpty }, "run \(run): an empty batch", sourceLocation: sourceLocation)
        let expectedCount = rate * seconds
        #expect(
            Double(readings.count) >= expectedCount * 0.8 - 1 && Double(readings.count) <= expectedCount * 1.15 + 2,
            "run \(run): \(readings.count) readings in \(seconds) s at \(rate) Hz", sourceLocation: sourceLocation)
        guard readings.count >= 3 else { return }
        let period = 1e9 / rate
        let spacings = zip(readings, readings.dropFirst()).map { Double(Int64($1.timestamp) - Int64($0.timestamp)) }
        #expect(spacings.allSatisfy { $0 > 0 }, "run \(run): timestamps not strictly increasing", sourceLocation: sourceLocation)
        let median = spacings.sorted()[spacings.count / 2]
        #expect(abs(median - period) <= 0.1 * period, "run \(run): median spacing \(median) ns, period \(period) ns", sourceLocation: sourceLocation)
        #expect(Double(readings[0].timestamp) > Double(startCalled) - 2 * period, "run \(run): first reading stamped before start", sourceLocation: sourceLocation)
        for batch in batches {
            #expect(batch.readings.last!.timestamp <= batch.deliveredAt, "run \(run): a reading stamped after its delivery", sourceLocation: sourceLocation)
        }
    }

    private static func checkValues(_ readings: [PressureReading], expected: Expectation, run: Int, _ sourceLocation: SourceLocation) {
        guard !readings.isEmpty else { return }
        let pressures = readings.map(\.pressure)
        let mean = pressures.reduce(0, +) / Double(pressures.count)
        #expect(abs(mean - expected.pressure) <= expected.pressureTolerance, "run \(run): mean pressure \(mean) Pa, expected \(expected.pressure) ± \(expected.pressureTolerance) Pa", sourceLocation: sourceLocation)
        let worst = pressures.map { abs($0 - expected.pressure) }.max()!
        #expect(worst <= expected.pressureTolerance + 5 * expected.pressureNoise, "run \(run): a reading \(worst) Pa off", sourceLocation: sourceLocation)
        let temperatures = readings.compactMap(\.temperature)
        guard let truth = expected.temperature else {
            #expect(temperatures.isEmpty, "run \(run): temperatures from a device without one", sourceLocation: sourceLocation)
            return
        }
        #expect(temperatures.count == readings.count, "run \(run): readings without a temperature", sourceLocation: sourceLocation)
        let meanTemperature = temperatures.reduce(0, +) / Double(max(temperatures.count, 1))
        #expect(abs(meanTemperature - truth) <= expected.temperatureTolerance, "run \(run): mean temperature \(meanTemperature) °C, expected \(truth)", sourceLocation: sourceLocation)
    }

    /// A transient failure is `.readFailed` and delivery recovers; a device that vanishes is `.unavailable`
    /// once, cannot be started while gone and works again once back.
    private static func checkFaults(_ device: any BarometerDevice, _ faults: Faults, _ time: TestTime, _ sourceLocation: SourceLocation) throws {
        let rate = min(device.info.supportedSampleRates.upperBound, 50)
        let recorder = Recorder(time: time)
        try device.start(sampleRate: rate, handler: recorder.handler)
        #expect(recorder.wait { $0.readings.count >= 2 }, "no readings at \(rate) Hz", sourceLocation: sourceLocation)
        faults.breakReads()
        let failed = recorder.wait { $0.faults.contains { if case .readFailed = $0 { true } else { false } } }
        faults.repairReads()
        #expect(failed, "no .readFailed after a failed read", sourceLocation: sourceLocation)
        let countAtFault = recorder.readingsBeforeFault.first ?? 0
        #expect(recorder.wait { $0.readings.count >= countAtFault + 3 }, "no recovery after a failed read", sourceLocation: sourceLocation)
        #expect(!recorder.faults.contains { if case .unavailable = $0 { true } else { false } }, sourceLocation: sourceLocation)

        faults.vanish()
        let gone = recorder.wait { $0.faults.contains { if case .unavailable = $0 { true } else { false } } }
        #expect(gone, "no .unavailable after the device vanished", sourceLocation: sourceLocation)
        let eventsAtGone = recorder.eventCount
        time.pass(0.05)
        #expect(recorder.eventCount == eventsAtGone, "events after .unavailable", sourceLocation: sourceLocation)
        #expect(recorder.faults.filter { if case .unavailable = $0 { true } else { false } }.count == 1, sourceLocation: sourceLocation)
        device.stop()
        let error = expectError(IMUDeviceError.self, sourceLocation: sourceLocation) {
            try device.start(sampleRate: rate) { _ in }
        }
        if case .unavailable = error {} else { Issue.record("start while gone: \(String(describing: error))", sourceLocation: sourceLocation) }

        faults.reappear()
        let again = Recorder(time: time)
        try device.start(sampleRate: rate, handler: again.handler)
        #expect(again.wait { $0.readings.count >= 2 }, "no readings once the device is back", sourceLocation: sourceLocation)
        device.stop()
        #expect(again.faults.isEmpty, "faults once the device is back: \(again.faults)", sourceLocation: sourceLocation)
    }
}
