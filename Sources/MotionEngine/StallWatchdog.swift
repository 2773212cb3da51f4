import Dispatch
import MotionSupervision
import Synchronization

/// One timer for the stall checks of every engine on a clock: every ``checkInterval`` it
/// asks each engine whose device runs whether its samples stopped. A timer per engine would cost two
/// thread wake-ups per engine and check; with a fleet simulated in one process (`motionctl simulate`:
/// thousands of engines) that was a third of the process's CPU. So the engines on the process's clock share
/// ``shared``; an engine on another clock (a test's manual clock) has a watchdog of its own on that clock.
/// The timer runs only while some device does.
///
/// Threads: any. The checks run on the watchdog's own queue; a stall found is reported on the engine's
/// supervision queue.
final class StallWatchdog: Sendable {
    /// How often the watchdog looks, s: a stall is reported at most this much after its threshold, and each
    /// check costs two thread wake-ups (dispatch's timer thread and a worker), shared by every engine on
    /// the clock, so not more often.
    static let checkInterval = 0.25

    /// The watchdog of the engines on the process's clock.
    static let shared = StallWatchdog(clock: DispatchSupervisionClock())

    /// The watchdog for an engine on `clock`: ``shared`` for the process's clock, else a new one.
    static func on(_ clock: any SupervisionClock) -> StallWatchdog {
        clock is DispatchSupervisionClock ? shared : StallWatchdog(clock: clock)
    }

    private struct Watched: Sendable {
        weak var engine: MotionEngine?
        let generation: UInt64
    }

    private let clock: any SupervisionClock
    private let state = Mutex<(watched: [ObjectIdentifier: Watched], timer: ScheduledWork?)>(([:], nil))
    private let queue = DispatchQueue(label: "MotionEngine.stall-watchdog")

    /// A watchdog whose checks `clock` times.
    init(clock: any SupervisionClock) {
        self.clock = clock
    }

    /// Checks `engine`'s run `generation` from now on (replacing an earlier run's).
    func watch(_ engine: MotionEngine, generation: UInt64) {
        state.withLock { state in
            state.watched[ObjectIdentifier(engine)] = Watched(engine: engine, generation: generation)
            guard state.timer == nil else { return }
            state.timer = clock.scheduleRepeating(on: queue, every: Self.checkInterval) { [weak self] in self?.check() }
        }
    }

    /// Stops checking `engine`; the timer stops with the last engine.
    func unwatch(_ engine: MotionEngine) {
        state.withLock { state in
            state.watched[ObjectIdentifier(engine)] = nil
            if state.watched.isEmpty {
                state.timer?.cancel()
                state.timer = nil
            }
        }
    }

    private func check() {
        // The engines as strong references, each weak reference read once (with thousands of engines in a
        // process, copying the weak entries and rebuilding the table at every check cost 1.5 % of its CPU).
        let engines = state.withLock { state -> [(engine: MotionEngine, generation: UInt64)] in
            var engines: [(engine: MotionEngine, generation: UInt64)] = []
            engines.reserveCapacity(state.watched.count)
            for entry in state.watched.values {
                if let engine = entry.engine { engines.append((engine, entry.generation)) }
            }
            // An engine released without stopping its device leaves no entry behind.
            if engines.count < state.watched.count { state.watched = state.watched.filter { $0.value.engine != nil } }
            if state.watched.isEmpty {
                state.timer?.cancel()
                state.timer = nil
            }
            return engines
        }
        for entry in engines { entry.engine.checkForStall(generation: entry.generation) }
    }
}
