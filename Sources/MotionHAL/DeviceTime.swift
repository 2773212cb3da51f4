import Dispatch
import MotionSupervision

/// The time a device driver reads, waits on and is polled by. On a board (``monotonic``): `CLOCK_MONOTONIC`,
/// `nanosleep`, and a delivery thread of its own per device. In a test (``clock(_:)``): a manual
/// ``SupervisionClock`` that the test advances, with the emulated chip on the same clock, so that a
/// driver's poll, its read times and its reset waits all follow the test's time and nothing sleeps.
///
/// Threading: any.
public struct DeviceTime: Sendable {
    /// nil: the process's monotonic clock and threads.
    let clock: (any SupervisionClock)?
    /// `clock == nil`, kept apart: ``now()`` runs for every delivery, and testing the optional existential
    /// goes through its value witnesses (0.8 % of `motionctl simulate`'s CPU).
    private let isMonotonic: Bool

    private init(clock: (any SupervisionClock)?) {
        self.clock = clock
        isMonotonic = clock == nil
    }

    /// `CLOCK_MONOTONIC`, `nanosleep` and delivery threads.
    public static let monotonic = DeviceTime(clock: nil)

    /// The time of `clock`: ``now()`` reads it, ``sleep(seconds:)`` moves it on (a manual clock does not
    /// block), and a device's polls are its repeating work.
    public static func clock(_ clock: any SupervisionClock) -> DeviceTime {
        DeviceTime(clock: clock)
    }

    /// Now, ns on the clock the samples are stamped with.
    public func now() -> UInt64 {
        guard !isMonotonic, let clock else { return MonotonicClock.now() }
        return MonotonicClock.nanoseconds(clock.now)
    }

    /// Waits `seconds` (a chip's reset or start-up time).
    public func sleep(seconds: Double) {
        guard let clock else { return MonotonicClock.sleep(seconds: seconds) }
        clock.sleep(seconds: seconds)
    }

    /// The queue the polls of devices on a supervision clock run on: not the delivery root, so a poll
    /// that hands its events to a device's queue (which targets the root) synchronously cannot deadlock.
    static let pollQueue = DispatchQueue(label: "MotionHAL.device-time")
}
