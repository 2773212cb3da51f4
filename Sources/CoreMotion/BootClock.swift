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
