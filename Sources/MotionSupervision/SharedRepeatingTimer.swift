import Dispatch
import Synchronization

/// One Dispatch timer for the periodic work of many owners on the process's clock, at one interval.
///
/// A Dispatch timer costs two thread wake-ups per firing (Dispatch's timer thread and a worker) and a
/// place in Dispatch's timer heap. A process that runs thousands of agents (`motionctl simulate`) gave
/// each agent's wall-clock check a timer of its own: 3 000 firings a second and a 6 000-timer heap,
/// about 5 % of the process's CPU in Dispatch's timer thread alone. Work added here runs on one timer per
/// interval instead, one piece after the other.
///
/// The first run of added work comes at the timer's next firing (within one interval), not exactly an
/// interval after it was added. A piece of work should be quick: the others wait behind it.
///
/// Threading: any thread may add and cancel; the work runs on the timer's own serial queue.
public final class SharedRepeatingTimer: Sendable {
    /// The interval, s.
    public let interval: Double
    private let queue: DispatchQueue
    private let state = Mutex<State>(State())

    private struct State {
        /// By id: the work and its handle (checked before each run, so that no run starts after a cancel).
        var work: [UInt64: (handle: ScheduledWork, run: @Sendable () -> Void)] = [:]
        var nextID: UInt64 = 0
        var timer: ScheduledWork?
    }

    private static let timers = Mutex<[Double: SharedRepeatingTimer]>([:])

    /// The process's shared timer firing every `interval` seconds (one per distinct interval, made on
    /// first use and kept).
    public static func every(_ interval: Double) -> SharedRepeatingTimer {
        timers.withLock { timers in
            if let timer = timers[interval] { return timer }
            let timer = SharedRepeatingTimer(interval: interval)
            timers[interval] = timer
            return timer
        }
    }

    private init(interval: Double) {
        self.interval = interval
        queue = DispatchQueue(label: "MotionSupervision.shared-timer-\(interval)")
    }

    /// Whether the Dispatch timer exists (some work is added); it is cancelled with the last work.
    public var isRunning: Bool { state.withLock { $0.timer != nil } }

    /// Runs `work` at every firing from the next on, until the returned handle is cancelled.
    /// - Returns: the handle that removes the work (a run already begun completes).
    public func add(_ work: @escaping @Sendable () -> Void) -> ScheduledWork {
        state.withLock { state in
            state.nextID &+= 1
            let id = state.nextID
            let handle = ScheduledWork { [weak self] in self?.remove(id) }
            state.work[id] = (handle, work)
            if state.timer == nil {
                state.timer = DispatchSupervisionClock().scheduleRepeating(on: queue, every: interval) { [weak self] in self?.fire() }
            }
            return handle
        }
    }

    private func remove(_ id: UInt64) {
        let stopped = state.withLock { state -> ScheduledWork? in
            state.work[id] = nil
            guard state.work.isEmpty else { return nil }
            defer { state.timer = nil }
            return state.timer
        }
        stopped?.cancel()
    }

    /// On the queue: every piece of work added, without the lock held (work may add or cancel).
    private func fire() {
        let work = state.withLock { Array($0.work.values) }
        for piece in work where !piece.handle.isCancelled { piece.run() }
    }
}
