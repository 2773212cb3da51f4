/// The on-board motion detectors. The raw values are their names in the configuration (`detectors`) and
/// in remote configuration documents.
public enum MotionDetectorKind: String, Sendable, Hashable, CaseIterable {
    /// Free fall: `threshold` (g), `minimum_duration` (s).
    case freeFall = "free_fall"
    /// Impact: `threshold` (g).
    case impact
    /// Tap and double tap: `threshold` (g), `double_tap_window` (s).
    case tap
    /// Shake: `threshold` (g), `reversals`.
    case shake
    /// Orientation (face up, portrait, …): `hysteresis` (cosine).
    case orientation
    /// Tilt from a reference attitude: `threshold`, `hysteresis` (degrees), `reference` (`"start"` or the
    /// reference's gravity direction).
    case tilt
    /// Rest ↔ motion: `acceleration` (g), `rotation` (rad/s), `confirm`, `settle` (s).
    case moving
    /// Vibration level and running state: `threshold` (g RMS), `confirm`, `stop` (s), `bands` (Hz).
    case vibration
    /// Activity (stationary, walking, running, unknown) from the steps: `running_cadence` (steps/s).
    case activity

    /// The events this detector finds (none for a detector that only keeps a state).
    public var eventKinds: [MotionEventKind] {
        switch self {
        case .freeFall: [.freeFall]
        case .impact: [.impact]
        case .tap: [.tap, .doubleTap]
        case .shake: [.shake]
        case .orientation, .tilt, .moving, .vibration, .activity: []
        }
    }

    /// The state this detector keeps, or nil for a detector that only finds events.
    public var stateKind: MotionStateKind? {
        switch self {
        case .freeFall, .impact, .tap, .shake: nil
        case .orientation: .orientation
        case .tilt: .tilt
        case .moving: .moving
        case .vibration: .vibration
        case .activity: .activity
        }
    }
}
