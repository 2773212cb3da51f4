import MotionHAL
import Synchronization

/// A test IMU whose events the test emits itself, synchronously, with chosen timestamps; it records
/// how often it was started and whether it runs, and can refuse its first starts.
public final class ScriptedIMU: IMUDevice {
    public let info: IMUDeviceInfo
    private struct State {
        var handler: (@Sendable (IMUDeviceEvent) -> Void)?
        var starts = 0
        var failuresLeft: Int
        /// `CLOCK_MONOTONIC` time of every start attempt, s.
        var attemptTimes: [Double] = []
    }
    private let state: Mutex<State>

    /// Creates a device with `sensors` running at `sampleRate` Hz whose first `failingStarts` starts throw
    /// ``IMUDeviceError/unavailable(_:)``.
    public init(sensors: IMUSensors = .all, sampleRate: Double = 200, failingStarts: Int = 0) {
        info = IMUDeviceInfo(
            driver: "scripted", chip: "test script", sensors: sensors,
            supportedSampleRates: sampleRate...sampleRate, defaultSampleRate: sampleRate)
        state = Mutex(State(failuresLeft: failingStarts))
    }

    public func start(sampleRate: Double, handler: @escaping @Sendable (IMUDeviceEvent) -> Void) throws {
        try state.withLock { state throws(IMUDeviceError) in
            state.attemptTimes.append(Double(MonotonicClock.now()) / 1e9)
            guard state.failuresLeft == 0 else {
                state.failuresLeft -= 1
                throw .unavailable("scripted start failure")
            }
            guard state.handler == nil else { throw .alreadyRunning }
            state.handler = handler
            state.starts += 1
        }
    }

    /// When each start was attempted (failed ones included), s of `CLOCK_MONOTONIC`.
    public var startAttemptTimes: [Double] { state.withLock { $0.attemptTimes } }

    public func stop() {
        state.withLock { $0.handler = nil }
    }

    /// Whether the device is started.
    public var isRunning: Bool { state.withLock { $0.handler != nil } }
    /// How many times the device was started.
    public var startCount: Int { state.withLock { $0.starts } }

    /// How often a start was attempted (failed ones included).
    public var startAttempts: Int { state.withLock { $0.attemptTimes.count } }

    /// Delivers `event` now, on the caller's thread, if running.
    public func emit(_ event: IMUDeviceEvent) {
        let handler = state.withLock { $0.handler }
        handler?(event)
    }

    /// `count` samples of a device lying face up at rest in a field pointing north and down, `1/rate`
    /// seconds apart from `start` ns.
    public func restingSamples(count: Int, from start: UInt64 = 1_000_000_000) -> [IMUSample] {
        (0..<count).map { index in
            IMUSample(
                timestamp: start + UInt64((Double(index) * 1e9 / info.defaultSampleRate).rounded()),
                acceleration: SIMD3(0, 0, 9.81), rotationRate: SIMD3(0, 0, 0), magneticField: SIMD3(0, 19.5, -44.5))
        }
    }
}
