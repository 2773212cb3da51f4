import Dispatch
import MotionSupervision
import Synchronization

/// A ``SupervisionClock`` that stands still until the test advances it, in the manner of NIO's
/// `EmbeddedEventLoop.advanceTime`: ``advance(by:)`` runs the work that falls due, in time order, each on
/// its queue (synchronously: when `advance` returns, the work has run). Retries, watchdogs and periodic
/// reports are so tested in no time and without sleeping.
///
/// Threading: thread-safe; call ``advance(by:)`` from a thread that is none of the work's queues.
public final class ManualClock: SupervisionClock {
    private struct Entry {
        /// ns.
        var due: UInt64
        var order: UInt64
        /// ns; nil for work that runs once.
        var interval: UInt64?
        let queue: DispatchQueue
        let work: @Sendable () -> Void
        let handle: ScheduledWork
    }

    private struct State {
        /// ns: whole nanoseconds, so that many small steps add up exactly.
        var now: UInt64
        var entries: [Entry] = []
        var order: UInt64 = 0
    }

    private let state: Mutex<State>

    /// A clock at `start` seconds.
    public init(start: Double = 1_000) {
        state = Mutex(State(now: Self.nanoseconds(start)))
    }

    public var now: Double { Double(nanoseconds) / 1e9 }

    /// The time in whole nanoseconds: a `CLOCK_MONOTONIC` stand-in for what stamps samples or measures
    /// silence (an emulated chip's `now`, an engine's `monotonicNanoseconds`).
    public var nanoseconds: UInt64 { state.withLock { $0.now } }

    /// ``nanoseconds`` as a function, for what takes a `CLOCK_MONOTONIC` source (an emulated chip's `now`).
    public var nanosecondSource: @Sendable () -> UInt64 { { [self] in nanoseconds } }

    /// `seconds` as whole nanoseconds (negative: 0).
    private static func nanoseconds(_ seconds: Double) -> UInt64 {
        UInt64(max(0, (seconds * 1e9).rounded()))
    }

    /// The delays from now of the work scheduled and not cancelled, s, soonest first.
    public var pendingDelays: [Double] {
        state.withLock { state in
            state.entries.filter { !$0.handle.isCancelled }.map { Double($0.due - state.now) / 1e9 }.sorted()
        }
    }

    @discardableResult
    public func schedule(on queue: DispatchQueue, after delay: Double, _ work: @escaping @Sendable () -> Void) -> ScheduledWork {
        add(queue: queue, delay: Self.nanoseconds(delay), interval: nil, work: work)
    }

    public func scheduleRepeating(on queue: DispatchQueue, every interval: Double, _ work: @escaping @Sendable () -> Void) -> ScheduledWork {
        add(queue: queue, delay: Self.nanoseconds(interval), interval: max(Self.nanoseconds(interval), 1), work: work)
    }

    /// Moves the clock `seconds` on, running every piece of work that falls due on the way at its own time
    /// (a repeating one as often as it falls due; work scheduled by work that runs also runs when it falls
    /// due within the advance).
    public func advance(by seconds: Double) {
        let end = state.withLock { $0.now } + Self.nanoseconds(seconds)
        while let entry = takeNextDue(before: end) {
            if !entry.handle.isCancelled { entry.queue.sync(execute: entry.work) }
        }
        state.withLock { $0.now = max($0.now, end) }
    }

    /// Moves the time `seconds` on without running the work that falls due meanwhile: what a thread that
    /// blocks sees (it runs at the next ``advance(by:)``, late).
    public func sleep(seconds: Double) {
        state.withLock { $0.now += Self.nanoseconds(seconds) }
    }

    private func add(queue: DispatchQueue, delay: UInt64, interval: UInt64?, work: @escaping @Sendable () -> Void) -> ScheduledWork {
        let handle = ScheduledWork()
        state.withLock { state in
            state.order += 1
            state.entries.append(Entry(due: state.now + delay, order: state.order, interval: interval, queue: queue, work: work, handle: handle))
        }
        return handle
    }

    /// The earliest entry due at or before `end` (the clock set to its time; a repeating one put back for
    /// its next time), or nil.
    private func takeNextDue(before end: UInt64) -> Entry? {
        state.withLock { state in
            state.entries.removeAll { $0.handle.isCancelled }
            guard let index = state.entries.indices.filter({ state.entries[$0].due <= end })
                .min(by: { (state.entries[$0].due, state.entries[$0].order) < (state.entries[$1].due, state.entries[$1].order) })
            else { return nil }
            let entry = state.entries[index]
            state.now = max(state.now, entry.due)
            if let interval = entry.interval {
                state.order += 1
                state.entries[index].due += interval
                state.entries[index].order = state.order
            } else {
                state.entries.remove(at: index)
            }
            return entry
        }
    }
}
