import CLinuxIO

/// The wall clock's discipline as the kernel reports it (`adjtimex(2)`, asking for no change): whether a
/// time daemon keeps it synchronized and how far off it may be.
///
/// A board without a real-time clock boots with the time of its last shutdown (or 1970) and is set right
/// only when chrony, systemd-timesyncd or ptp4l reaches a server; until then its Unix times are not to be
/// trusted. `CLOCK_MONOTONIC`, which every sample's `timestamp` uses, is unaffected either way.
public struct KernelClockStatus: Sendable, Equatable {
    /// Whether the kernel considers the clock synchronized (`adjtimex` did not return `TIME_ERROR` and
    /// `STA_UNSYNC` is clear).
    public var synchronized: Bool
    /// The estimated error, s (`esterror`).
    public var estimatedError: Double
    /// The maximum error, s (`maxerror`): it grows by 500 ppm while nothing disciplines the clock, up to
    /// the kernel's 16 s.
    public var maximumError: Double

    /// Creates a status.
    /// - Parameters:
    ///   - synchronized: whether the clock is synchronized.
    ///   - estimatedError: estimated error, s.
    ///   - maximumError: maximum error, s.
    public init(synchronized: Bool, estimatedError: Double, maximumError: Double) {
        self.synchronized = synchronized
        self.estimatedError = estimatedError
        self.maximumError = maximumError
    }

    /// The kernel's status now; `nil` when `adjtimex` fails (a sandbox that forbids it). Thread-safe.
    public static func current() -> KernelClockStatus? {
        var status = clinuxio_clock_status()
        guard clinuxio_clock_status(&status) == 0 else { return nil }
        return KernelClockStatus(
            synchronized: status.synchronized != 0, estimatedError: Double(status.estimated_error_us) / 1e6,
            maximumError: Double(status.maximum_error_us) / 1e6)
    }
}
