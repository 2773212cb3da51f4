#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Synchronization

/// A thread of its own that calls `tick` at fixed `CLOCK_MONOTONIC` deadlines until cancelled: the
/// simulated and replayed devices' stand-in for a FIFO watermark interrupt, and the I²C driver's poll.
///
/// One wake-up per tick: a dispatch timer costs two (the dispatch manager thread, then a worker), which at
/// 100 deliveries a second is a measurable share of the agent's CPU. A late tick does not cause a burst:
/// the next deadline then counts from now.
final class DeliveryClock: Sendable {
    private let cancelled = Atomic<Bool>(false)
    private let interval: UInt64
    private let tick: @Sendable () -> Void
    private let finish: @Sendable () -> Void
    private let finished = DispatchSemaphore(value: 0)

    /// Starts the thread; the first tick comes `interval` ns after `start`.
    /// - Parameters:
    ///   - interval: ns between ticks (> 0).
    ///   - start: ns of `CLOCK_MONOTONIC` the ticks count from.
    ///   - tick: what to do at each deadline, on the clock's thread.
    ///   - finish: what to do on the clock's thread after the last tick, before ``waitUntilFinished()`` returns.
    init(
        interval: UInt64, start: UInt64, tick: @escaping @Sendable () -> Void,
        finish: @escaping @Sendable () -> Void = {}
    ) {
        self.interval = max(interval, 1)
        self.tick = tick
        self.finish = finish
        let box = Unmanaged.passRetained(Box(clock: self, start: start)).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(&thread, nil, { argument in
            let box = Unmanaged<Box>.fromOpaque(argument!).takeRetainedValue()
            box.clock.run(from: box.start)
            box.clock.finish()
            box.clock.finished.signal()
            return nil
        }, box)
        precondition(created == 0, "cannot create the simulator's delivery thread (\(created))")
        pthread_detach(thread)
    }

    /// Stops the ticks: none starts after this returns (one already running finishes).
    func cancel() {
        cancelled.store(true, ordering: .releasing)
    }

    /// Whether ``cancel()`` has been called.
    var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    /// Blocks until the thread has ended after ``cancel()`` (its last tick finished). Must not be called
    /// from a tick.
    func waitUntilFinished() {
        finished.wait()
        finished.signal()  // later waiters return at once
    }

    private func run(from start: UInt64) {
        var deadline = start + interval
        while !cancelled.load(ordering: .acquiring) {
            var time = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
            while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &time, nil) == EINTR {}
            if cancelled.load(ordering: .acquiring) { break }
            tick()
            deadline += interval
            let now = MonotonicClock.now()
            if deadline <= now { deadline = now + interval }
        }
    }

    /// What the new thread needs, handed over through its start argument.
    private final class Box {
        let clock: DeliveryClock
        let start: UInt64
        init(clock: DeliveryClock, start: UInt64) {
            self.clock = clock
            self.start = start
        }
    }
}
