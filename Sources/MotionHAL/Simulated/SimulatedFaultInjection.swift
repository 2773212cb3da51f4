/// A scripted failure of the live ``SimulatedIMU``: at ``after`` seconds after `start` the device delivers one
/// `.fault(.readFailed("simulated fault"))` and then no samples for ``duration`` seconds (a stall), after
/// which it resumes by itself; with ``every`` the fault repeats every that many seconds.
///
/// Timestamps keep following the real clock (sample `n` is still stamped `t0 + n / rate`): the samples
/// whose timestamps fall in the outage are lost, never delivered late, so the first sample after the
/// outage shows a gap of about ``duration`` seconds. The clock-free ``SimulatedIMU/sample(index:sampleRate:startTimestamp:)``
/// is unaffected.
///
/// ``kind`` other than ``FaultInjectingIMU/Kind/read`` (a stall, NaN or saturated readings, a device that
/// vanishes and returns) is injected by ``FaultInjectingIMU`` around the simulator, with the same times;
/// ``IMUDeviceSpecification`` builds that device for `sim:fault=KIND,…`.
public struct SimulatedFaultInjection: Sendable, Equatable {
    /// What goes wrong; ``FaultInjectingIMU/Kind/read`` (the default) is what the simulator injects itself.
    public var kind: FaultInjectingIMU.Kind = .read
    /// Time from `start` to the first fault, s (≥ 0).
    public var after: Double
    /// Length of the outage that follows each fault, s (≥ 0; 0 = a fault event without lost samples).
    public var duration: Double
    /// Period of repeated faults, s (> ``duration``); nil for a single fault.
    public var every: Double?

    /// Creates a fault script.
    /// - Parameters:
    ///   - after: seconds from `start` to the first fault, ≥ 0.
    ///   - duration: seconds without samples after each fault, ≥ 0.
    ///   - every: seconds between faults (> `duration`), or nil for one fault.
    ///   - kind: the fault, a failed read by default.
    public init(after: Double, duration: Double, every: Double? = nil, kind: FaultInjectingIMU.Kind = .read) {
        self.kind = kind
        self.after = after
        self.duration = duration
        self.every = every
    }

    /// The text of the injected ``IMUDeviceError/readFailed(_:)``.
    public static let faultText = "simulated fault"
}
