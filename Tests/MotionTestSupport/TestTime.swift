import Foundation
import MotionHAL

/// Time as a test of a device sees it: the process's (``real``: waiting sleeps) or a ``ManualClock``
/// (``manual(_:)``: waiting advances the clock, which runs the device's polls on the way). The device under
/// test and its emulated chip take their time from here too (``device``, ``nanosecondSource``), so that
/// all three agree.
///
/// Threading: any; ``pass(_:)`` of a manual time must not be called from a device's poll or handler.
public struct TestTime: Sendable {
    /// The manual clock, or nil for the process's time.
    public let clock: ManualClock?

    /// The process's time.
    public static let real = TestTime(clock: nil)

    /// The time of `clock`.
    public static func manual(_ clock: ManualClock = ManualClock()) -> TestTime {
        TestTime(clock: clock)
    }

    /// Now, ns (`CLOCK_MONOTONIC` for real time).
    public var now: UInt64 { clock?.nanoseconds ?? MonotonicClock.now() }

    /// ``now`` as a function, for an emulated chip's `now`.
    public var nanosecondSource: @Sendable () -> UInt64 { clock?.nanosecondSource ?? MonotonicClock.now }

    /// The time for a device under test: its read stamps, waits and polls.
    public var device: DeviceTime { clock.map { .clock($0) } ?? .monotonic }

    /// Lets `seconds` pass: sleeps, or advances the manual clock (running what falls due on the way).
    public func pass(_ seconds: Double) {
        if let clock { clock.advance(by: seconds) } else { Thread.sleep(forTimeInterval: seconds) }
    }

    /// Blocks the calling thread for `seconds` (a slow bus transfer inside a device's poll): sleeps, or
    /// moves the manual clock on without running what falls due (it runs, late, at the next ``pass(_:)``).
    public func stall(_ seconds: Double) {
        if let clock { clock.sleep(seconds: seconds) } else { Thread.sleep(forTimeInterval: seconds) }
    }
}
