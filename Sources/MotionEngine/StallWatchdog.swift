import Dispatch
import Synchronization

/// One timer for the stall checks of every engine of the process: every ``MotionEngine/stallCheckInterval``
/// it asks each engine whose device runs whether its samples stopped. A timer per engine would cost two
/// thread wake-ups per engine and check; with a fleet simulated in one process (`motionctl simulate`:
/// thousands of engines) that was a third of the process's CPU. The timer runs only while some device does.
///
/// Threads: any. The checks run on the watchdog's own queue; a stall found is reported on the engine's
/// supervision queue, as before.
final class StallWatchdog: Sendable {
    /// The process's watchdog.
    static let shared = StallWatchdog()

    private struct Watched: Sendable {
        weak var engine: MotionEngine?
        let generation: UInt64
    }

    /// A dispatch timer, thread-safe itself.
    private struct Timer: @unchecked Sendable {
        let source: any DispatchSourceTimer
    }

    private let state = Mutex<(watched: [ObjectIdentifier: Watched], timer: Timer?)>(([:], nil))
    private let queue = DispatchQueue(label: "MotionEngine.stall-watchdog")

    /// Checks `engine`'s run `generation` from now on (replacing an earlier run's).
    func watch(_ engine: MotionEngine, generation: UInt64) {
        state.withLock { state in
            state.watched[ObjectIdentifier(engine)] = Watched(engine: engine, generation: generation)
            guard state.timer == nil else { return }
            let source = DispatchSource.makeTimerSource(queue: queue)
            let period = DispatchTimeInterval.milliseconds(Int(MotionEngine.stallCheckInterval * 1000))
            source.schedule(deadline: .now() + period, repeating: period, leeway: .milliseconds(50))
            source.setEventHandler { [weak self] in self?.check() }
            source.resume()
            state.timer = Timer(source: source)
        }
    }

    /// Stops checking `engine`; the timer stops with the last engine.
    func unwatch(_ engine: MotionEngine) {
        state.withLock { state in
            state.watched[ObjectIdentifier(engine)] = nil
            if state.watched.isEmpty {
                state.timer?.source.cancel()
                state.timer = nil
            }
        }
    }

    private func check() {
        let watched = state.withLock { state -> [Watched] in
            // An engine released without stopping its device leaves no entry behind.
            state.watched = state.watched.filter { $0.value.engine != nil }
            if state.watched.isEmpty {
                state.timer?.source.cancel()
                state.timer = nil
            }
            return Array(state.watched.values)
        }
        for entry in watched { entry.engine?.checkForStall(generation: entry.generation) }
    }
}
