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

    /// Blocks the calling thread for at least `seconds` (a chip's reset or settling time), resuming the
    /// sleep after a signal.
    /// - Parameter seconds: s, ≥ 0.
    public static func sleep(seconds: Double) {
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
        var remaining = timespec()
        while nanosleep(&request, &remaining) == -1 && errno == EINTR { request = remaining }
    }
}
