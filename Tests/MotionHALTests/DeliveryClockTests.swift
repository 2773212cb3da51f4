import CLinuxIO
import Synchronization
import Testing

@testable import MotionHAL

/// The delivery clocks' threads wake at their deadlines: a tick runs with 1 µs of timer slack, on a clock's
/// own thread and on the shared pool's, where a normal thread's 50 µs would make every delivery late.
@Suite struct DeliveryClockTests {
    private func slackSeenByATick(shared: Bool) -> Int {
        let seen = Atomic<Int>(-1)
        let ticked = Mutex(false)
        let clock = DeliveryClock(interval: 1_000_000, start: MonotonicClock.now(), shared: shared) {
            seen.store(clinuxio_timer_slack(), ordering: .relaxed)
            ticked.withLock { $0 = true }
        }
        let deadline = MonotonicClock.now() + 5_000_000_000
        while !ticked.withLock({ $0 }), MonotonicClock.now() < deadline { MonotonicClock.sleep(seconds: 0.001) }
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
