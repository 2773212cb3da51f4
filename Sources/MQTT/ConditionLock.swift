#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value guarded by a pthread mutex, with a condition variable to wait for the value to change.
///
/// `Synchronization.Mutex` has no condition variable; waiting for "connected" or "acknowledged" with
/// a timeout needs one. Waits use `CLOCK_MONOTONIC` on Linux, so wall-clock jumps do not matter.
/// The closures passed in run with the lock held: keep them short and never call back into
/// libmosquitto or user code from them.
final class ConditionLock<State>: @unchecked Sendable {
    // @unchecked Sendable: `state` is only read or written with `mutex` held (every access is in this
    // file), and the pthread objects live at fixed heap addresses for the lifetime of the object.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private var state: State
    /// Threads in one of the `wait` calls (changed with `mutex` held): a change with no one waiting
    /// skips the broadcast, which every publication would otherwise pay for twice.
    private var waiters = 0

    init(_ initialState: State) {
        state = initialState
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        #if os(Linux)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
        #else
        pthread_cond_init(condition, nil)
        #endif
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the lock held.
    func withLock<Result, Failure: Error>(_ body: (inout State) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }

    /// Runs `body` with the lock held, then wakes every waiter so it re-checks its condition.
    func withLockBroadcasting<Result, Failure: Error>(
        _ body: (inout State) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer {
            if waiters > 0 { pthread_cond_broadcast(condition) }
            pthread_mutex_unlock(mutex)
        }
        return try body(&state)
    }

    /// Waits until `isSatisfied(state)` is true (someone changes the state with
    /// ``withLockBroadcasting(_:)``).
    /// - Returns: true.
    @discardableResult
    func wait(until isSatisfied: (State) -> Bool) -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        waiters += 1
        defer { waiters -= 1 }
        while !isSatisfied(state) { pthread_cond_wait(condition, mutex) }
        return true
    }

    /// Waits until `isSatisfied(state)` is true or `timeout` has passed.
    /// - Returns: whether the condition was satisfied (checked once more at the deadline).
    @discardableResult
    func wait(timeout: Duration, until isSatisfied: (State) -> Bool) -> Bool {
        let deadline = Self.deadline(after: timeout)
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        waiters += 1
        defer { waiters -= 1 }
        while !isSatisfied(state) {
            var deadlineSpec = deadline
            let result = pthread_cond_timedwait(condition, mutex, &deadlineSpec)
            if result == ETIMEDOUT { return isSatisfied(state) }
        }
        return true
    }

    /// The absolute time `timeout` from now on the clock the condition variable uses.
    private static func deadline(after timeout: Duration) -> timespec {
        var now = timespec()
        #if os(Linux)
        clock_gettime(CLOCK_MONOTONIC, &now)
        #else
        clock_gettime(CLOCK_REALTIME, &now)
        #endif
        let (seconds, attoseconds) = max(timeout, .zero).components
        let cappedSeconds = min(seconds, 365 * 24 * 3600)  // keeps tv_sec far from overflow
        var totalNanoseconds = Int(now.tv_nsec) + Int(attoseconds / 1_000_000_000)
        var totalSeconds = Int(now.tv_sec) + Int(cappedSeconds)
        totalSeconds += totalNanoseconds / 1_000_000_000
        totalNanoseconds %= 1_000_000_000
        return timespec(tv_sec: totalSeconds, tv_nsec: totalNanoseconds)
    }
}
