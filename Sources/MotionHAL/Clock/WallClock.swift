#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `CLOCK_REALTIME`, the wall clock: for stamps people read and for the magnetic model's date, never for
/// intervals (it jumps when the time is set; intervals use ``MonotonicClock``).
public enum WallClock {
    /// Seconds since 1970-01-01T00:00:00Z.
    public static func unixTime() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}
