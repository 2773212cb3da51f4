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
}
