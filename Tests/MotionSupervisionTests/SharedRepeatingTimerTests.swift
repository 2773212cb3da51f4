import Dispatch
import MotionSupervision
import Synchronization
import Testing

/// One Dispatch timer for many owners' periodic work: a thin shell over Dispatch's timer, so these tests
/// run on real time, at an interval of their own (no other code shares it), and wait on semaphores.
@Suite(.serialized) struct SharedRepeatingTimerTests {
    @Test func everyPieceRunsAtEachFiringUntilCancelledAndTheTimerStopsWithTheLast() {
        let timer = SharedRepeatingTimer.every(0.013)
        #expect(SharedRepeatingTimer.every(0.013) === timer && !timer.isRunning)
        let runsOfA = Atomic<Int>(0)
        let first = DispatchSemaphore(value: 0)
        let second = DispatchSemaphore(value: 0)
        let a = timer.add {
            runsOfA.add(1, ordering: .relaxed)
            first.signal()
        }
        let b = timer.add {
            second.signal()
        }
        #expect(timer.isRunning)
        for _ in 0..<3 {
            #expect(first.wait(timeout: .now() + 5) == .success && second.wait(timeout: .now() + 5) == .success)
        }

        a.cancel()
        // Once cancel returns, the piece never starts again (a run begun before may complete: two
        // firings later it has); the other goes on.
        for _ in 0..<2 { #expect(second.wait(timeout: .now() + 5) == .success) }
        let afterCancel = runsOfA.load(ordering: .relaxed)
        for _ in 0..<3 { #expect(second.wait(timeout: .now() + 5) == .success) }
        #expect(runsOfA.load(ordering: .relaxed) == afterCancel)
        #expect(timer.isRunning)

        b.cancel()
        #expect(!timer.isRunning)
        // Work added again starts the timer again.
        let again = DispatchSemaphore(value: 0)
        let c = timer.add { again.signal() }
        #expect(again.wait(timeout: .now() + 5) == .success)
        c.cancel()
        #expect(!timer.isRunning)
    }

    @Test func workMayCancelItselfWhileItRuns() {
        let timer = SharedRepeatingTimer.every(0.017)
        let handle = Mutex<ScheduledWork?>(nil)
        let ran = DispatchSemaphore(value: 0)
        let count = Atomic<Int>(0)
        handle.withLock { slot in
            slot = timer.add {
                count.add(1, ordering: .relaxed)
                handle.withLock { $0 }?.cancel()
                ran.signal()
            }
        }
        #expect(ran.wait(timeout: .now() + 5) == .success)
        #expect(!timer.isRunning && count.load(ordering: .relaxed) == 1)
    }
}
