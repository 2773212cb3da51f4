import CLinuxIO
import Dispatch
import Synchronization
import Testing

@testable import MotionHAL

/// The delivery clocks' threads wake at their deadlines: a tick runs with 1 µs of timer slack, on a clock's
/// own thread and on the shared pool's, where a normal thread's 50 µs would make every delivery late.
@Suite struct DeliveryClockTests {
    /// The slack a tick of a real clock thread sees (the test waits for that tick, not for time to pass).
    private func slackSeenByATick(shared: Bool) -> Int {
        let seen = Atomic<Int>(-1)
        let ticked = DispatchSemaphore(value: 0)
        let clock = DeliveryClock(interval: 1_000_000, start: MonotonicClock.now(), shared: shared) {
            seen.store(clinuxio_timer_slack(), ordering: .relaxed)
            ticked.signal()
        }
        _ = ticked.wait(timeout: .now() + .seconds(5))
        clock.cancel()
        clock.waitUntilFinished()
        return seen.load(ordering: .relaxed)
    }

    @Test func aClockOfItsOwnTicksWithMicrosecondSlack() {
        #expect(slackSeenByATick(shared: false) == Int(DeliveryClock.timerSlack))
        // The test's thread keeps the default: only the clocks' threads change.
        #expect(clinuxio_timer_slack() != Int(DeliveryClock.timerSlack))
    }

    @Test func aSharedClockTicksWithMicrosecondSlack() {
        #expect(slackSeenByATick(shared: true) == Int(DeliveryClock.timerSlack))
    }
}

/// A late tick skips the deadlines it missed and keeps the clock's phase.
@Suite struct DeliveryClockScheduleTests {
    @Test func onTimeTheNextDeadlineIsOneIntervalLater() {
        #expect(DeliveryClock.nextDeadline(after: 1_000, interval: 100, now: 1_050) == 1_100)
        #expect(DeliveryClock.nextDeadline(after: 1_000, interval: 100, now: 1_099) == 1_100)
    }

    @Test func aLateTickSkipsTheMissedDeadlinesAndStaysOnTheGrid() {
        // Exactly on the next deadline: that one has come, the one after is next.
        #expect(DeliveryClock.nextDeadline(after: 1_000, interval: 100, now: 1_100) == 1_200)
        // 3.5 intervals late: three ticks skipped, not a burst of them, and not 1_350 + 100 (a phase shift).
        #expect(DeliveryClock.nextDeadline(after: 1_000, interval: 100, now: 1_350) == 1_400)
        #expect(DeliveryClock.nextDeadline(after: 1_000, interval: 100, now: 1_399) == 1_400)
        #expect(DeliveryClock.nextDeadline(after: 1_000, interval: 100, now: 1_400) == 1_500)
        let interval: UInt64 = 10_000_000
        for lateness in stride(from: UInt64(0), to: 50 * interval, by: 7_777_777) {
            let next = DeliveryClock.nextDeadline(after: 5 * interval, interval: interval, now: 6 * interval + lateness)
            #expect(next % interval == 0 && next > 6 * interval + lateness && next <= 7 * interval + lateness)
        }
    }
}
