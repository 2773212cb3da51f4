import Synchronization
import MotionMath

/// Any ``IMUDevice`` with scripted hardware faults, for testing what the layers above do with a failing
/// sensor: the faults a real chip and bus produce, at known times, and the recovery after them.
///
/// At ``FaultScript/after`` seconds after the first `start`, and again every ``FaultScript/every``
/// seconds, a fault window of ``FaultScript/duration`` seconds opens. Windows are placed by the samples'
/// own timestamps (`CLOCK_MONOTONIC`, counted from the first `start`), and a vanished device's `start`
/// compares the same clock's time now with its window's end. What happens in the window depends
/// on the ``Kind``. Samples then pass ``IMUSampleScreen`` as in a hardware driver, so values that are
/// not numbers are dropped and full-scale readings reported; the device's info gets full-scale ranges
/// (16 g, 2000 °/s, 4900 µT, an MPU-9250's) where the inner device has none.
public final class FaultInjectingIMU: IMUDevice {
    /// What goes wrong in a fault window.
    public enum Kind: String, Sendable, CaseIterable {
        /// A failed read (`.fault(.readFailed)`) as the window opens, and no samples in it.
        case read
        /// No samples in the window and no event at all: the device just falls silent.
        case stall
        /// Every reading in the window is NaN (a bus returning garbage).
        case nan
        /// The accelerometer and gyroscope read full scale in the window (a knock, a spin too fast).
        case saturate
        /// The device is gone: `.fault(.unavailable)` as the window opens, nothing after it, and `start`
        /// throws ``IMUDeviceError/unavailable(_:)`` until the window has passed (unplugged, then plugged back).
        case vanish
    }

    /// When faults happen.
    public struct FaultScript: Sendable, Equatable {
        /// The fault.
        public var kind: Kind
        /// Seconds from the first `start` to the first window, ≥ 0.
        public var after: Double
        /// Length of each window, s, ≥ 0.
        public var duration: Double
        /// Seconds between windows (> `duration`), or `nil` for one.
        public var every: Double?

        /// A script.
        /// - Parameters:
        ///   - kind: the fault.
        ///   - after: s from the first start to the first window.
        ///   - duration: s of each window.
        ///   - every: s between windows, or `nil` for one.
        public init(kind: Kind, after: Double, duration: Double, every: Double? = nil) {
            self.kind = kind
            self.after = after
            self.duration = duration
            self.every = every
        }

        /// The window that contains `offset` (ns since the first start), as its start and end in ns, if any.
        func window(containing offset: UInt64) -> (start: UInt64, end: UInt64)? {
            let first = MonotonicClock.nanoseconds(after)
            guard offset >= first else { return nil }
            let length = MonotonicClock.nanoseconds(duration)
            var start = first
            if let every {
                let period = max(MonotonicClock.nanoseconds(every), 1)
                start = first + (offset - first) / period * period
            }
            let (end, overflow) = start.addingReportingOverflow(length)
            return offset < (overflow ? .max : end) ? (start, overflow ? .max : end) : nil
        }
    }

    /// The inner device's info, with full-scale ranges filled in.
    public let info: IMUDeviceInfo
    /// The device the faults are injected into.
    public let inner: any IMUDevice
    /// When and what.
    public let script: FaultScript

    private struct State {
        /// `CLOCK_MONOTONIC` of the first start, ns: the script's time zero.
        var origin: UInt64?
        /// The window whose fault event was delivered last (its start, ns since origin).
        var announcedWindow: UInt64?
        /// Vanished: the time the device comes back, ns since origin.
        var goneUntil: UInt64?
        var screen: IMUSampleScreen
        var running = false
    }

    private let state: Mutex<State>

    /// Wraps `inner`.
    /// - Parameters:
    ///   - inner: the device (not started).
    ///   - script: when and which faults happen.
    public init(_ inner: any IMUDevice, script: FaultScript) {
        var info = inner.info
        info.accelerometerRange = info.accelerometerRange ?? 16 * standardGravity
        info.gyroscopeRange = info.gyroscopeRange ?? 2_000 * .pi / 180
        info.magnetometerRange = info.magnetometerRange ?? 4_900
        self.info = info
        self.inner = inner
        self.script = script
        state = Mutex(State(screen: IMUSampleScreen(info: info)))
    }

    /// Starts the inner device, unless it has vanished and its window has not passed.
    /// - Throws: what the inner device throws, or ``IMUDeviceError/unavailable(_:)`` while vanished.
    public func start(sampleRate: Double, handler: @escaping @Sendable (IMUDeviceEvent) -> Void) throws {
        let now = MonotonicClock.now()
        try state.withLock { (state) throws(IMUDeviceError) in
            guard !state.running else { throw .alreadyRunning }
            let origin = state.origin ?? now
            state.origin = origin
            if let until = state.goneUntil {
                guard now - origin >= until else { throw .unavailable("injected fault: the device is gone") }
                state.goneUntil = nil
            }
            state.running = true
        }
        do {
            try inner.start(sampleRate: sampleRate) { [weak self] event in
                guard let self else { return }
                for event in self.transform(event) { handler(event) }
            }
        } catch {
            state.withLock { $0.running = false }
            throw error
        }
    }

    /// Stops the inner device.
    public func stop() {
        inner.stop()
        state.withLock { $0.running = false }
    }

    /// On the inner device's queue: the events a device with these faults would deliver instead.
    private func transform(_ event: IMUDeviceEvent) -> [IMUDeviceEvent] {
        guard case .samples(let samples) = event else { return [event] }
        return state.withLock { state -> [IMUDeviceEvent] in
            guard state.goneUntil == nil, let origin = state.origin else { return [] }
            var events: [IMUDeviceEvent] = []
            var passed: [IMUSample] = []
            for var sample in samples {
                let offset = sample.timestamp >= origin ? sample.timestamp - origin : 0
                guard let window = script.window(containing: offset) else {
                    passed.append(sample)
                    continue
                }
                let opens = state.announcedWindow != window.start
                state.announcedWindow = window.start
                switch script.kind {
                case .read:
                    if opens { events.append(.samples(passed)); passed = []; events.append(.fault(.readFailed("injected read error"))) }
                case .stall:
                    break
                case .nan:
                    sample.acceleration = sample.acceleration.map { _ in SIMD3(repeating: .nan) }
                    sample.rotationRate = sample.rotationRate.map { _ in SIMD3(repeating: .nan) }
                    sample.magneticField = sample.magneticField.map { _ in SIMD3(repeating: .nan) }
                    passed.append(sample)
                case .saturate:
                    sample.acceleration = sample.acceleration.map { _ in SIMD3(info.accelerometerRange!, 0, 0) }
                    sample.rotationRate = sample.rotationRate.map { _ in SIMD3(0, 0, -info.gyroscopeRange!) }
                    passed.append(sample)
                case .vanish:
                    events.append(.samples(passed))
                    events.append(.fault(.unavailable("injected fault: the device is gone")))
                    state.goneUntil = window.end
                    return Self.screened(events, with: &state.screen)
                }
            }
            events.append(.samples(passed))
            return Self.screened(events, with: &state.screen)
        }
    }

    /// The events with every sample batch screened as a driver does, empty batches left out.
    private static func screened(_ events: [IMUDeviceEvent], with screen: inout IMUSampleScreen) -> [IMUDeviceEvent] {
        events.flatMap { event -> [IMUDeviceEvent] in
            guard case .samples(let samples) = event else { return [event] }
            let (kept, fault) = screen.screen(samples)
            return (kept.isEmpty ? [] : [.samples(kept)]) + (fault.map { [.fault($0)] } ?? [])
        }
    }
}
