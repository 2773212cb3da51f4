#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Synchronization

/// The time under every retry, watchdog and periodic report: what time it is, and work scheduled on a
/// queue after a delay or at an interval. The process's is ``DispatchSupervisionClock`` (monotonic time,
/// Dispatch's timers); tests inject a manual clock that they advance, so that a retry's back-off or a
/// report's interval is checked without sleeping.
///
/// Threading: every method may be called from any thread; the work runs on the queue given.
public protocol SupervisionClock: Sendable {
    /// Seconds on a monotonic clock (only differences mean anything).
    var now: Double { get }

    /// Runs `work` on `queue` once, `delay` seconds from now, unless cancelled first.
    /// - Returns: the handle that cancels it.
    @discardableResult
    func schedule(on queue: DispatchQueue, after delay: Double, _ work: @escaping @Sendable () -> Void) -> ScheduledWork

    /// Runs `work` on `queue` every `interval` seconds, the first an interval from now, until cancelled.
    /// - Returns: the handle that cancels it.
    func scheduleRepeating(on queue: DispatchQueue, every interval: Double, _ work: @escaping @Sendable () -> Void) -> ScheduledWork

    /// Blocks the calling thread for `seconds` (a driver waiting for a chip's reset). A manual clock moves
    /// its time on at once instead, without running the work that falls due (that runs when it is next
    /// advanced, late, as it would behind a blocked thread).
    func sleep(seconds: Double)
}

/// Work a ``SupervisionClock`` will run: cancel it to run it no more (a run already begun completes).
/// Thread-safe.
public final class ScheduledWork: Sendable {
    private let cancelled = Atomic<Bool>(false)
    private let onCancel: Mutex<(@Sendable () -> Void)?>

    /// A handle; `onCancel` runs once, on the first ``cancel()`` (a timer's clean-up).
    public init(onCancel: (@Sendable () -> Void)? = nil) {
        self.onCancel = Mutex(onCancel)
    }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    /// Runs the work no more.
    public func cancel() {
        cancelled.store(true, ordering: .releasing)
        let cleanUp = onCancel.withLock { action -> (@Sendable () -> Void)? in
            defer { action = nil }
            return action
        }
        cleanUp?()
    }
}

/// The process's clock: `CLOCK_MONOTONIC` through `DispatchTime`, and Dispatch's `asyncAfter` and timer
/// sources.
public struct DispatchSupervisionClock: SupervisionClock {
    /// The process's clock.
    public init() {}

    public var now: Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    public func sleep(seconds: Double) {
        guard seconds > 0 else { return }
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
        var remaining = timespec()
        while nanosleep(&request, &remaining) == -1 && errno == EINTR { request = remaining }
    }

    @discardableResult
    public func schedule(on queue: DispatchQueue, after delay: Double, _ work: @escaping @Sendable () -> Void) -> ScheduledWork {
        let handle = ScheduledWork()
        queue.asyncAfter(deadline: .now() + max(delay, 0)) {
            if !handle.isCancelled { work() }
        }
        return handle
    }

    public func scheduleRepeating(on queue: DispatchQueue, every interval: Double, _ work: @escaping @Sendable () -> Void) -> ScheduledWork {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        // A leeway of 5 % lets the kernel coalesce wake-ups of periodic reports.
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .nanoseconds(Int(interval * 5e7)))
        let source = UncheckedTimer(timer)
        let handle = ScheduledWork { source.timer.cancel() }
        timer.setEventHandler { if !handle.isCancelled { work() } }
        timer.resume()
        return handle
    }
}

/// A Dispatch timer source carried into the cancel action (the source is thread-safe; the protocol is not
/// marked `Sendable`).
private struct UncheckedTimer: @unchecked Sendable {
    let timer: any DispatchSourceTimer
    init(_ timer: any DispatchSourceTimer) { self.timer = timer }
}
