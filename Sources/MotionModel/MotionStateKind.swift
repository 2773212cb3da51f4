/// The states the motion detectors keep, each replaced by its newer value. The raw values are the names
/// the contract writes (the topic segment after `{base}/state/`), and the case order is part of
/// CoreMotion's archive format: append, never reorder.
public enum MotionStateKind: String, Sendable, Hashable, CaseIterable {
    /// At rest or moving (significant motion).
    case moving
    /// Which way the device faces: face up, portrait, … (Apple's `UIDeviceOrientation` names).
    case orientation
    /// Tilted beyond the configured angle from the reference attitude, or not.
    case tilt
    /// A machine running (vibrating above the configured level) or stopped, with the levels.
    case vibration
    /// What the wearer is doing: stationary, walking, running, unknown, with a confidence.
    case activity
}
