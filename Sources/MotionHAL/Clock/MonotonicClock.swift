#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `CLOCK_MONOTONIC`, the time base of every ``IMUSample`` timestamp.
public enum MonotonicClock {
    /// Nanoseconds since an arbitrary point (on Linux, boot, excluding suspend).
    public static func now() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }

    /// `seconds` as whole nanoseconds, saturating: 0 for negative values and NaN, `UInt64.max` for spans
    /// longer than UInt64 holds (about 584 years), so that no input can trap the conversion.
    /// - Parameter seconds: s.
    public static func nanoseconds(_ seconds: Double) -> UInt64 {
        guard seconds > 0 else { return 0 }
        let nanoseconds = seconds * 1e9
        return nanoseconds < 18_446_744_073_709_549_568 ? UInt64(nanoseconds) : .max
    }

    /// Blocks the calling thread for at least `seconds` (a chip's reset or settling time), resuming the
    /// sleep after a signal.
    /// - Parameter seconds: s, ≥ 0.
    public static func sleep(seconds: Double) {
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
        var remaining = timespec()
        while nanosleep(&request, &remaining) == -1 && errno == EINTR { request = remaining }
    }
}
