import Synchronization

/// ``TimeSynchronizationSource/running(procRoot:)`` shared by everything in one process: the `/proc` scan
/// (one small file per process on the machine) runs again only when the last one is older than
/// ``maximumAge``. Which daemon disciplines the clock is a property of the machine, not of an agent: a
/// `motionctl simulate` of 2 000 agents, each reporting health every 10 s, would otherwise scan `/proc`
/// 200 times a second.
///
/// Threading: any thread; one scan at a time, under the probe's lock, so callers that arrive during a
/// scan wait for its answer instead of scanning too.
public final class TimeSynchronizationProbe: Sendable {
    /// The probe of this process, over `/proc`, answering from a scan at most 30 s old.
    public static let shared = TimeSynchronizationProbe()

    /// How old a scan may be and still answer, s.
    public let maximumAge: Double
    private let procRoot: String
    private let now: @Sendable () -> UInt64
    private let last = Mutex<Scan?>(nil)

    private struct Scan {
        var source: TimeSynchronizationSource?
        /// When it was taken, ns on ``now``'s clock.
        var taken: UInt64
    }

    /// A probe over `procRoot`.
    /// - Parameters:
    ///   - procRoot: the proc file system (a fake tree in tests).
    ///   - maximumAge: how old an answer may be, s (a daemon started or stopped shows up at most this late).
    ///   - now: the monotonic clock, ns (a test's manual clock).
    public init(
        procRoot: String = "/proc", maximumAge: Double = 30,
        now: @escaping @Sendable () -> UInt64 = { MonotonicClock.now() }
    ) {
        self.procRoot = procRoot
        self.maximumAge = maximumAge
        self.now = now
    }

    /// The source running now, from a scan at most ``maximumAge`` seconds old.
    public func source() -> TimeSynchronizationSource? {
        last.withLock { last in
            let time = now()
            if let scan = last, time >= scan.taken, time - scan.taken < MonotonicClock.nanoseconds(maximumAge) {
                return scan.source
            }
            let source = TimeSynchronizationSource.running(procRoot: procRoot)
            last = Scan(source: source, taken: time)
            return source
        }
    }
}
