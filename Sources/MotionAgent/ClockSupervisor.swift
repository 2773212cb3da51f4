import Dispatch
import MotionContract
import MotionHAL
import MotionLog
import MotionMath
import MotionSupervision
import Synchronization

/// The agent's watch on the wall clock: every second it reads the monotonic and the wall clock and the
/// kernel's synchronization status, keeps the shared ``WallClockAnchor`` (every payload's `ts`) on the wall
/// clock, and reports a jump of the wall clock (a board without a real-time clock synchronizing after boot,
/// an operator's `date -s`, a resume) as a warning and in `health.clock`. Sample times (`timestamp`, the
/// monotonic clock) are never touched.
///
/// The work is ``check()``, on whatever clock and queue ``schedule(on:queue:every:)`` is given: tests call
/// it after setting their fake clocks. Threading: any thread; state under one lock.
final class ClockSupervisor: Sendable {
    /// The anchor every encoder of the agent reads.
    let anchor: WallClockAnchor

    private let monotonicNanoseconds: @Sendable () -> UInt64
    private let unixTime: @Sendable () -> Double
    private let kernelStatus: @Sendable () -> KernelClockStatus?
    private let source: @Sendable () -> TimeSynchronizationSource?
    private let logger: Logger
    private let state: Mutex<State>

    private struct State {
        var watch = WallClockWatch()
        var status: KernelClockStatus?
        var timer: ScheduledWork?
    }

    /// A supervisor reading the given clocks, with the anchor set from a first reading.
    /// - Parameters:
    ///   - monotonicNanoseconds: `CLOCK_MONOTONIC`, ns.
    ///   - unixTime: `CLOCK_REALTIME`, s.
    ///   - kernelStatus: the kernel's synchronization status (`adjtimex`); `nil` when unknown, taken as
    ///     synchronized (nothing to say otherwise).
    ///   - source: the disciplining daemon, read at each health report (the process's shared probe by default).
    ///   - logger: where a step is reported.
    init(
        monotonicNanoseconds: @escaping @Sendable () -> UInt64, unixTime: @escaping @Sendable () -> Double,
        kernelStatus: @escaping @Sendable () -> KernelClockStatus? = { KernelClockStatus.current() },
        source: @escaping @Sendable () -> TimeSynchronizationSource? = { TimeSynchronizationProbe.shared.source() },
        logger: Logger = .agent
    ) {
        self.monotonicNanoseconds = monotonicNanoseconds
        self.unixTime = unixTime
        self.kernelStatus = kernelStatus
        self.source = source
        self.logger = logger
        var watch = WallClockWatch()
        let first = Self.read(monotonicNanoseconds, unixTime)
        _ = watch.observe(monotonic: first.monotonic, unixTime: first.unixTime)
        let status = kernelStatus()
        anchor = WallClockAnchor(offset: watch.offset ?? 0, synchronized: status?.synchronized ?? true)
        state = Mutex(State(watch: watch, status: status))
    }

    /// Checks every `interval` seconds from now (replacing an earlier schedule): on `clock` and `queue`, or,
    /// on the process's clock, on the process's ``SharedRepeatingTimer`` for that interval (its queue), with
    /// every other agent's checks of the process (`motionctl simulate`'s thousands of agents had a
    /// Dispatch timer each).
    func schedule(on clock: any SupervisionClock, queue: DispatchQueue, every interval: Double = 1) {
        let timer = clock is DispatchSupervisionClock
            ? SharedRepeatingTimer.every(interval).add { [weak self] in self?.check() }
            : clock.scheduleRepeating(on: queue, every: interval) { [weak self] in self?.check() }
        state.withLock { state in
            state.timer?.cancel()
            state.timer = timer
        }
    }

    /// Stops the checks.
    func stop() {
        state.withLock { state in
            state.timer?.cancel()
            state.timer = nil
        }
    }

    /// One check: both clocks, the kernel's status; the anchor follows; a step is logged.
    func check() {
        let now = Self.read(monotonicNanoseconds, unixTime)
        let status = kernelStatus()
        let (step, offset, wasSynchronized) = state.withLock { state in
            let step = state.watch.observe(monotonic: now.monotonic, unixTime: now.unixTime)
            let wasSynchronized = state.status?.synchronized ?? true
            state.status = status
            return (step, state.watch.offset ?? anchor.offset, wasSynchronized)
        }
        let synchronized = status?.synchronized ?? true
        anchor.update(offset: offset, synchronized: synchronized)
        if let step {
            let direction = step.size > 0 ? "forward" : "back"
            logger.warning(
                "the wall clock was set \(direction) by \(abs(step.size).fixedDecimal(places: 3)) s; Unix times (ts) follow it from now on, sample times are unaffected")
        }
        if synchronized != wasSynchronized {
            logger.notice(
                synchronized
                    ? "the wall clock is synchronized; Unix times (ts) are no longer marked uncertain"
                    : "the wall clock is not synchronized; Unix times (ts) are marked uncertain")
        }
    }

    /// Both clocks at one instant: the wall clock read before and after the monotonic one, their mean taken,
    /// so a preemption between two reads does not shift every later `ts` by its length (the tighter of
    /// three tries).
    static func read(
        _ monotonicNanoseconds: () -> UInt64, _ unixTime: () -> Double
    ) -> (monotonic: UInt64, unixTime: Double) {
        var best: (monotonic: UInt64, unixTime: Double, spread: Double)?
        for _ in 0..<3 {
            let before = unixTime()
            let monotonic = monotonicNanoseconds()
            let after = unixTime()
            if best == nil || after - before < best!.spread { best = (monotonic, (before + after) / 2, after - before) }
            if after - before < 20e-6 { break }
        }
        return (best!.monotonic, best!.unixTime)
    }

    /// The kernel's status at the last check (nil when it could not be read).
    var kernelStatusNow: KernelClockStatus? { state.withLock { $0.status } }

    /// The clock's part of a health report: the last status read, the source now, the steps seen.
    func health() -> HealthPayload.Clock {
        let (status, steps, lastStep) = state.withLock { ($0.status, $0.watch.steps, $0.watch.lastStep) }
        return HealthPayload.Clock(
            synchronized: status?.synchronized ?? anchor.isSynchronized, estimatedError: status?.estimatedError,
            maximumError: status?.maximumError, source: source()?.rawValue, steps: steps, lastStep: lastStep?.size)
    }
}
