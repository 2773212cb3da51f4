#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CLinuxIO
import Dispatch
import MotionSupervision
import Synchronization

/// A thread of its own that calls `tick` at fixed `CLOCK_MONOTONIC` deadlines until cancelled: the
/// simulated and replayed devices' stand-in for a FIFO watermark interrupt, and the I²C driver's poll.
///
/// One wake-up per tick: a dispatch timer costs two (the dispatch manager thread, then a worker), which at
/// 100 deliveries a second is a measurable share of the agent's CPU. A late tick does not cause a burst:
/// the ticks it missed are skipped, and the next keeps the clock's phase
/// (``nextDeadline(after:interval:now:)``). A clock may instead be kept by the process's
/// ``DeliveryClockPool`` (four threads per core for every such clock), for fleets of simulated devices, or
/// by the supervision clock of a ``DeviceTime`` (a test's manual clock: the ticks run when it is advanced).
final class DeliveryClock: Sendable {
    private let cancelled = Atomic<Bool>(false)
    /// Whether ``DeliveryClockPool/shared`` keeps the clock (rather than a thread of its own).
    let isShared: Bool
    /// The repeating work of a supervision clock that keeps this one; nil for a thread or the pool.
    private let keptWork = Mutex<ScheduledWork?>(nil)
    /// ns between ticks.
    let interval: UInt64
    private let tick: @Sendable () -> Void
    private let finish: @Sendable () -> Void
    private let finished = DispatchSemaphore(value: 0)

    /// Starts the thread; the first tick comes `interval` ns after `start`.
    /// - Parameters:
    ///   - interval: ns between ticks (> 0).
    ///   - start: ns of `CLOCK_MONOTONIC` the ticks count from.
    ///   - tick: what to do at each deadline, on the clock's thread.
    ///   - finish: what to do on the clock's thread after the last tick, before ``waitUntilFinished()`` returns
    ///     (for a shared clock: on the thread of its last tick, or in ``cancel()`` between ticks).
    ///   - shared: kept by ``DeliveryClockPool/shared`` instead of a thread of its own.
    ///   - time: the time that keeps the deadlines: with a supervision clock, its repeating work (every
    ///     `interval` from now) runs the ticks on ``DeviceTime/pollQueue`` instead of a thread or the pool.
    init(
        interval: UInt64, start: UInt64, shared: Bool = false, time: DeviceTime = .monotonic,
        tick: @escaping @Sendable () -> Void, finish: @escaping @Sendable () -> Void = {}
    ) {
        self.interval = max(interval, 1)
        self.tick = tick
        self.finish = finish
        isShared = shared && time.clock == nil
        if let clock = time.clock {
            // Kept like a pool's clock (the same tick and finish rules), by the clock's work.
            let work = clock.scheduleRepeating(on: DeviceTime.pollQueue, every: Double(self.interval) / 1e9) { [self] in
                if !tickFromPool() { keptWork.withLock { $0?.cancel() } }
            }
            keptWork.withLock { $0 = work }
            return
        }
        if shared {
            DeliveryClockPool.shared.add(self, firstDeadline: start + self.interval)
            return
        }
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

    /// Whether a tick of a shared clock is running, and whether it has finished (after ``cancel()``).
    private let poolState = Mutex<(ticking: Bool, finished: Bool)>((false, false))

    /// Stops the ticks: none starts after this returns (one already running finishes). A shared clock
    /// that is not ticking has finished at once (its entry leaves the pool at its next deadline).
    func cancel() {
        cancelled.store(true, ordering: .releasing)
        let work = keptWork.withLock { $0 }
        work?.cancel()
        guard isShared || work != nil else { return }
        let finishesNow = poolState.withLock { state -> Bool in
            guard !state.ticking, !state.finished else { return false }
            state.finished = true
            return true
        }
        if finishesNow { finishShared() }
    }

    private func finishShared() {
        finish()
        finished.signal()
    }

    /// Whether ``cancel()`` has been called.
    var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    /// Blocks until the thread has ended after ``cancel()`` (its last tick finished). Must not be called
    /// from a tick.
    func waitUntilFinished() {
        finished.wait()
        finished.signal()  // later waiters return at once
    }

    /// On a pool thread at a deadline: the tick, or after ``cancel()`` the finish.
    /// - Returns: whether the clock goes on (false once it has finished).
    func tickFromPool() -> Bool {
        let runs = poolState.withLock { state -> Bool in
            guard !isCancelled else { return false }
            state.ticking = true
            return true
        }
        guard runs else { return false }  // cancelled: finished by cancel() or below
        tick()
        let finishesNow = poolState.withLock { state -> Bool in
            state.ticking = false
            guard isCancelled, !state.finished else { return false }
            state.finished = true
            return true
        }
        if finishesNow { finishShared() }
        return !finishesNow
    }

    /// The timer slack of the clocks' threads, ns. A tick is a deadline that samples wait on: with the
    /// kernel's default 50 µs for a normal thread, each delivery woke up to 50 µs late and every message
    /// carried that delay (`motion-bench agent`, two runs each: latency p50 0.50–0.54 → 0.40–0.44 ms,
    /// p99 0.72–0.74 → 0.62–0.66 ms).
    static let timerSlack: UInt = 1_000

    private func run(from start: UInt64) {
        _ = clinuxio_set_timer_slack(Self.timerSlack)
        var deadline = start + interval
        while !cancelled.load(ordering: .acquiring) {
            var time = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
            while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &time, nil) == EINTR {}
            if cancelled.load(ordering: .acquiring) { break }
            tick()
            deadline = Self.nextDeadline(after: deadline, interval: interval, now: MonotonicClock.now())
        }
    }

    /// The deadline after `deadline`: one interval later, or, when that has passed already (a tick later
    /// than a whole interval), the first one on the same grid after `now`. Missed ticks are skipped, so a
    /// late tick causes no burst, and the ticks stay in phase with the samples: counting the next one from
    /// `now` instead shifted every later delivery by the lateness, for good (a simulated fleet's devices
    /// drifted to half a period of latency on average).
    /// - Parameters:
    ///   - deadline: the tick's deadline, ns.
    ///   - interval: ns between ticks, > 0.
    ///   - now: the time after the tick, ns.
    static func nextDeadline(after deadline: UInt64, interval: UInt64, now: UInt64) -> UInt64 {
        let next = deadline + interval
        guard next <= now else { return next }
        return next + ((now - next) / interval + 1) * interval
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
