import Dispatch
import MotionSupervision
import MotionTestSupport
import Synchronization
import Testing

/// The back-off, the supervisor and the manual clock they are tested on: no test here sleeps.
@Suite struct DeviceSupervisorTests {
    @Test func theBackoffDoublesUpToItsMaximumAndStartsOverAfterASuccess() {
        var backoff = Backoff(first: 0.5, maximum: 8)
        #expect((0..<7).map { _ in backoff.next() } == [0.5, 1, 2, 4, 8, 8, 8])
        backoff.reset()
        #expect(backoff.next() == 0.5)
        var constant = Backoff(first: 30, maximum: 30)
        #expect([constant.next(), constant.next()] == [30, 30])
    }

    /// A device that comes back at the third attempt: attempts at 1, 3 and 7 s (delays 1, 2, 4), on the
    /// supervisor's queue, then none; the next failure waits the first delay again.
    @Test func attemptsFollowTheBackoffUntilOneSucceeds() {
        let clock = ManualClock()
        let queue = DispatchQueue(label: "supervisor-test")
        let supervisor = DeviceSupervisor(backoff: Backoff(first: 1, maximum: 30), clock: clock, queue: queue)
        let start = clock.now
        let attempts = Mutex<[Double]>([])
        let attempt: @Sendable () -> DeviceSupervisor.Outcome = {
            dispatchPrecondition(condition: .onQueue(queue))
            let count = attempts.withLock { $0.append(clock.now - start); return $0.count }
            return count < 3 ? .failed : .succeeded
        }
        #expect(supervisor.retry(attempt) == 1)
        clock.advance(by: 0.999)
        #expect(attempts.withLock { $0 }.isEmpty)
        clock.advance(by: 10)
        #expect(attempts.withLock { $0 } == [1, 3, 7])
        #expect(!supervisor.isRetrying && supervisor.nextDelay == 1 && clock.pendingDelays.isEmpty)
    }

    @Test func anAbandonedOrCancelledRetryStops() {
        let clock = ManualClock()
        let queue = DispatchQueue(label: "supervisor-test")
        let supervisor = DeviceSupervisor(backoff: Backoff(first: 2, maximum: 8), clock: clock, queue: queue)
        let runs = Mutex(0)
        supervisor.retry {
            runs.withLock { $0 += 1 }
            return .abandoned
        }
        clock.advance(by: 100)
        #expect(runs.withLock { $0 } == 1 && !supervisor.isRetrying)
        // The back-off was not reset by an abandoned attempt: the next wait is 4 s.
        #expect(supervisor.retry { .failed } == 4)
        supervisor.cancel()
        #expect(clock.pendingDelays.isEmpty)
        // A second retry replaces the first: one attempt scheduled at a time.
        supervisor.retry { runs.withLock { $0 += 1 }; return .succeeded }
        supervisor.retry { runs.withLock { $0 += 1 }; return .succeeded }
        #expect(clock.pendingDelays.count == 1)
        clock.advance(by: 100)
        #expect(runs.withLock { $0 } == 2)
    }

    @Test func repeatingWorkRunsOncePerIntervalUntilCancelled() {
        let clock = ManualClock()
        let queue = DispatchQueue(label: "clock-test")
        let times = Mutex<[Double]>([])
        let start = clock.now
        let handle = clock.scheduleRepeating(on: queue, every: 10) { times.withLock { $0.append(clock.now - start) } }
        clock.advance(by: 35)
        #expect(times.withLock { $0 } == [10, 20, 30])
        handle.cancel()
        clock.advance(by: 100)
        #expect(times.withLock { $0 }.count == 3 && clock.now - start == 135)
    }

    /// The process's clock really waits (the only real-time check here, 50 ms).
    @Test func theDispatchClockRunsWorkAfterTheDelayAndNotWhenCancelled() {
        let clock = DispatchSupervisionClock()
        let queue = DispatchQueue(label: "dispatch-clock-test")
        let done = DispatchSemaphore(value: 0)
        let start = clock.now
        let ran = Mutex<Double?>(nil)
        let cancelled = clock.schedule(on: queue, after: 0.01) { ran.withLock { $0 = -1 } }
        cancelled.cancel()
        clock.schedule(on: queue, after: 0.05) {
            ran.withLock { $0 = clock.now - start }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 5) == .success)
        #expect((ran.withLock { $0 } ?? 0) >= 0.05)
    }
}
