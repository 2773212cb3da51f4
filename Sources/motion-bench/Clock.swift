#if canImport(Glibc)
import Glibc
#endif

/// `CLOCK_MONOTONIC`, the clock of the agent's sample timestamps (`CMLogItem.timestamp`).
enum Clock {
    /// Nanoseconds of `CLOCK_MONOTONIC` now.
    static func monotonicNanoseconds() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }

    /// Sleeps the calling thread for `seconds`.
    static func sleep(seconds: Double) {
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }
}
