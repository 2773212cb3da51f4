import MotionHAL
import Synchronization

/// Converts between the samples' clock (seconds since boot, `CLOCK_MONOTONIC`, the time base of every
/// ``CMLogItem/timestamp``) and `Date`, for the APIs that speak in dates (pedometer, activity). The
/// conversion uses the wall clock now, so a date long past moves with any later change of the clock.
enum BootClock {
    /// Seconds since boot now.
    static var uptime: Double { Double(MonotonicClock.now()) / 1e9 }

    /// The date of `uptime` seconds since boot.
    static func date(atUptime time: Double) -> Date { Date(timeIntervalSinceNow: time - uptime) }

    /// Seconds since boot at `date`.
    static func uptime(at date: Date) -> Double { uptime + date.timeIntervalSinceNow }
}

/// One call of a caller's (non-`Sendable`) block, carried to the `OperationQueue` or the serial queue the
/// API runs it on. `@unchecked Sendable` for the same reason as ``QueuedHandler``: the block only ever runs
/// on that queue, and the values it is called with are immutable framework objects.
struct QueuedCall: @unchecked Sendable {
    /// The call.
    let body: () -> Void

    /// Runs the call on `queue` unless `session` is stopped by then.
    func enqueue(on queue: OperationQueue, unlessStopped session: UpdateSession) {
        queue.addOperation {
            guard !session.isStopped else { return }
            body()
        }
    }
}

/// One run of updates a start method began; stopping it means no further handler call starts.
final class UpdateSession: Sendable {
    private let stopped = Atomic<Bool>(false)

    /// Whether the updates were stopped.
    var isStopped: Bool { stopped.load(ordering: .acquiring) }

    /// Stops the updates.
    func stop() { stopped.store(true, ordering: .releasing) }
}

/// One kind of a client's updates, running at most once at a time: the run's session and what must be
/// undone to end it (its listener tokens). Installing a run ends the one it replaces in the same step, so
/// two starts, or a start and a stop, at once leave no run behind.
final class UpdateSlot<Run: Sendable>: Sendable {
    private let current = Mutex<(session: UpdateSession, run: Run)?>(nil)
    private let end: @Sendable (Run) -> Void

    /// - Parameter end: undoes a run (removes its listeners), after its session has been stopped.
    init(end: @escaping @Sendable (Run) -> Void) {
        self.end = end
    }

    /// Makes `run` the current one and ends the one before it, if any.
    func install(_ session: UpdateSession, _ run: Run) {
        let replaced = current.withLock { value in
            defer { value = (session, run) }
            return value
        }
        if let replaced { finish(replaced) }
    }

    /// Whether a run is installed.
    var isActive: Bool { current.withLock { $0 != nil } }

    /// Ends the current run, if any; no handler call of it starts after this returns.
    func stop() {
        if let running = current.withLock({ value in defer { value = nil }; return value }) { finish(running) }
    }

    private func finish(_ running: (session: UpdateSession, run: Run)) {
        running.session.stop()
        end(running.run)
    }
}
