import MotionContract

/// Decides at each watchdog check whether the service manager's watchdog may be fed (`WATCHDOG=1`): only
/// when the sample path made progress since the previous check, so that a stalled device pipeline, or a
/// publisher dead-locked on the delivery thread (which stops the samples from reaching the pipelines),
/// gets the agent restarted, and a thread that merely lives does not keep it alive.
///
/// The rules: with no service active nothing is expected, and a check that ran proves that the control
/// queue lives (feed); while the device is not open (missing, unplugged, no permission) the agent is
/// waiting for it and retrying by itself, so a restart could not help and would only run into the
/// unit's start-rate limit on a board without its IMU (feed); when the set of active services changed
/// since the previous check, or at the first check, the new services get one period's grace (feed);
/// otherwise feed only when the pipelines took in samples since the previous check. A pure value: the
/// caller reads the counters and sends the ping.
public struct SampleWatchdog: Sendable, Equatable {
    private var lastSamples: UInt64?
    private var lastActive: Set<MotionService> = []

    /// A watchdog before its first check.
    public init() {}

    /// One check.
    /// - Parameters:
    ///   - activeServices: the services that should be publishing.
    ///   - samplesIn: the samples the IMU's path has taken in since the agent started (the sensor services'
    ///     pipelines and the step and activity detectors; not the barometer's).
    ///   - deviceIsOpen: whether the IMU is open (`false` while the agent retries opening it).
    /// - Returns: whether to feed the watchdog now.
    public mutating func check(activeServices: Set<MotionService>, samplesIn: UInt64, deviceIsOpen: Bool = true) -> Bool {
        defer {
            // A device that opens again gets the grace of a new start.
            lastSamples = deviceIsOpen ? samplesIn : nil
            lastActive = activeServices
        }
        if activeServices.isEmpty || !deviceIsOpen { return true }
        guard let last = lastSamples, activeServices == lastActive else { return true }
        return samplesIn > last
    }
}
