#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// The process's log settings: the handler of every ``Logger`` made without one, and the least important
/// priority written. Standard error (``StandardErrorLogHandler``) and info until a program says otherwise.
///
/// Threading: every member may be used from any thread.
public enum LoggingSystem {
    private static let state = Mutex<any LogHandler>(StandardErrorLogHandler())
    private static let threshold = Atomic<Int>(LogPriority.info.rawValue)

    /// The handler of loggers made without one.
    public static var handler: any LogHandler { state.withLock { $0 } }

    /// Makes `handler` the process's (a program does this once, before it starts logging).
    public static func bootstrap(_ handler: any LogHandler) {
        state.withLock { $0 = handler }
    }

    /// The least important priority written; info by default.
    public static var minimumPriority: LogPriority {
        LogPriority(rawValue: threshold.load(ordering: .relaxed)) ?? .info
    }

    /// Writes only lines at `priority` or more important from now on, by every logger: for a process of
    /// many agents (`motionctl simulate`), whose routine lines would be thousands, or `debug` to see
    /// everything.
    public static func setMinimumPriority(_ priority: LogPriority) {
        threshold.store(priority.rawValue, ordering: .relaxed)
    }

    /// The time stamp of records: the wall clock (`CLOCK_REALTIME`), s since 1970.
    static func clock() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}
