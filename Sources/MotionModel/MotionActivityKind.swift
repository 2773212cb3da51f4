/// What a device's wearer is doing, as far as the board can tell (the activities of `CMMotionActivity`
/// that steps can tell apart). The raw values are the names the contract writes
/// (`{base}/state/activity`, `{base}/activity`), and the case order is part of CoreMotion's archive
/// format: append, never reorder.
public enum MotionActivityKind: String, Sendable, Hashable, CaseIterable {
    /// Not moving.
    case stationary
    /// Moving with steps at a walking cadence.
    case walking
    /// Moving with steps at a running cadence.
    case running
    /// Moving without steps (carried, handled, in a vehicle): what it is cannot be told.
    case unknown
}

/// How sure an activity estimate is, by how long its evidence has lasted: Apple's
/// `CMMotionActivityConfidence`, with the same raw values; surer orders later.
public enum MotionActivityConfidence: Int, Sendable, Hashable, Comparable, CaseIterable {
    /// Evidence for a short time.
    case low
    /// Evidence for longer.
    case medium
    /// Evidence for long enough to be sure.
    case high

    /// Less sure orders first.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
