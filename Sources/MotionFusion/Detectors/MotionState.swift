import MotionModel

/// A state a motion detector keeps, as it changes: the values `{base}/state/{name}` carries. Pure value.
public enum MotionState: Sendable, Equatable {
    /// At rest (false) or moving (true): ``MotionActivityStateDetector``.
    case moving(Bool)
    /// Which way the device faces: ``DeviceOrientationDetector``.
    case orientation(DeviceOrientationDetector.Orientation)
    /// Tilted beyond the threshold from the reference (true) or back within it: ``TiltDetector``; the angle
    /// from the reference, rad.
    case tilted(Bool, angle: Double)
    /// A machine running (true) or stopped: ``VibrationMeter``; the first band's RMS, g.
    case vibrating(Bool, level: Double)
    /// What the wearer is doing: ``MotionActivityClassifier``.
    case activity(MotionActivityEstimate)

    /// Which state this is, so that a newer value replaces an older one of the same kind.
    public var kind: Kind {
        switch self {
        case .moving: .moving
        case .orientation: .orientation
        case .tilted: .tilt
        case .vibrating: .vibration
        case .activity: .activity
        }
    }

    /// The kinds of state (the model's ``MotionStateKind``).
    public typealias Kind = MotionStateKind
}
