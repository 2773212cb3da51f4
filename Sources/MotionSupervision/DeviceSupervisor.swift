import Dispatch
import Synchronization

/// Gets a device back: runs an attempt (open, start) after each delay of its ``Backoff`` on a clock, until
/// one succeeds or it is cancelled. The one supervision of the engine's device starts, the agent's device
/// opens and the barometer's. Each attempt runs on the supervisor's queue; only one is ever scheduled.
///
/// Threading: every method may be called from any thread.
public final class DeviceSupervisor: Sendable {
    /// Whether an attempt got the device back.
    public enum Outcome: Sendable {
        /// It did: the back-off starts over.
        case succeeded
        /// It did not: try again after the next delay.
        case failed
        /// Nothing to do any more (the device was replaced, the program stops): no further attempt.
        case abandoned
    }

    private struct State {
        var backoff: Backoff
        var pending: ScheduledWork?
        /// Counts the attempts scheduled: an attempt that runs knows whether it is still the pending one.
        var scheduled: UInt64 = 0
    }

    private let clock: any SupervisionClock
    private let queue: DispatchQueue
    private let state: Mutex<State>

    /// A supervisor.
    /// - Parameters:
    ///   - backoff: the delays between attempts.
    ///   - clock: the clock the delays are measured on.
    ///   - queue: where the attempts run.
    public init(backoff: Backoff, clock: any SupervisionClock, queue: DispatchQueue) {
        self.clock = clock
        self.queue = queue
        state = Mutex(State(backoff: backoff))
    }

    /// The delay before the next attempt that ``retry(_:)`` would schedule, s.
    public var nextDelay: Double { state.withLock { $0.backoff.current } }

    /// Whether an attempt is scheduled.
    public var isRetrying: Bool { state.withLock { $0.pending != nil } }

    /// Schedules `attempt` after the next delay (replacing one already scheduled), and again after each
    /// failure.
    /// - Returns: the delay until the attempt, s.
    @discardableResult
    public func retry(_ attempt: @escaping @Sendable () -> Outcome) -> Double {
        state.withLock { state in
            state.pending?.cancel()
            state.scheduled &+= 1
            let token = state.scheduled
            let delay = state.backoff.next()
            state.pending = clock.schedule(on: queue, after: delay) { [weak self] in self?.run(attempt, token: token) }
            return delay
        }
    }

    /// The device is back by other means (it started at once): the next failure waits the first delay.
    public func succeeded() {
        state.withLock { state in
            state.pending?.cancel()
            state.pending = nil
            state.backoff.reset()
        }
    }

    /// Schedules no more attempts (the next ``retry(_:)`` starts again).
    public func cancel() {
        state.withLock { state in
            state.pending?.cancel()
            state.pending = nil
        }
    }

    private func run(_ attempt: @escaping @Sendable () -> Outcome, token: UInt64) {
        state.withLock { state in
            if state.scheduled == token { state.pending = nil }
        }
        switch attempt() {
        case .succeeded: succeeded()
        case .failed: retry(attempt)
        case .abandoned: break
        }
    }
}
