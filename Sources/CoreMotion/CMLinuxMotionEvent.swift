import MotionFusion

/// Something the board's motion detectors found at one moment: a free fall, an impact, a tap, a double tap
/// or a shake (a Linux addition; Apple's CoreMotion has no such class). Immutable.
open class CMLinuxMotionEvent: CMLogItem {
    /// What happened.
    public enum Kind: String, Sendable, CaseIterable {
        /// The device fell freely; ``CMLinuxMotionEvent/magnitude`` is the height the fall implies, m.
        case freeFall = "free_fall"
        /// A blow; the magnitude is the peak specific force, g.
        case impact
        /// A tap; the magnitude is the peak user acceleration, g.
        case tap
        /// Two taps in quick succession; the magnitude is the larger peak, g.
        case doubleTap = "double_tap"
        /// The device was shaken; the magnitude is the peak user acceleration, g.
        case shake
    }

    private let event: MotionEvent

    init(_ event: MotionEvent) {
        self.event = event
        super.init(timestamp: event.timestamp)
    }

    /// What happened.
    open var kind: Kind { Kind(rawValue: event.kind.rawValue) ?? .impact }
    /// How long it lasted, s (its start is ``timestamp``).
    open var duration: TimeInterval { event.duration }
    /// How strong it was, in the unit ``kind`` names.
    open var magnitude: Double { event.magnitude }
}

/// A state the board's motion detectors keep, as it changed (a Linux addition). Immutable.
open class CMLinuxMotionStateChange: CMLogItem {
    /// Which state changed.
    public enum Kind: String, Sendable, CaseIterable {
        /// Rest or motion (``CMLinuxMotionStateChange/isActive``: moving).
        case moving
        /// Which way the device faces (``CMLinuxMotionStateChange/orientation``).
        case orientation
        /// Tilted beyond the threshold (``CMLinuxMotionStateChange/isActive``), with the angle in ``value``, rad.
        case tilt
        /// A machine vibrating (``CMLinuxMotionStateChange/isActive``), with the RMS level in ``value``, g.
        case vibration
    }

    private let storedKind: Kind
    private let storedActive: Bool
    private let storedOrientation: String?
    private let storedValue: Double?

    init?(_ state: MotionState, at time: Double) {
        switch state {
        case .moving(let moving): (storedKind, storedActive, storedOrientation, storedValue) = (.moving, moving, nil, nil)
        case .orientation(let face): (storedKind, storedActive, storedOrientation, storedValue) = (.orientation, true, face.rawValue, nil)
        case .tilted(let tilted, let angle): (storedKind, storedActive, storedOrientation, storedValue) = (.tilt, tilted, nil, angle)
        case .vibrating(let running, let level): (storedKind, storedActive, storedOrientation, storedValue) = (.vibration, running, nil, level)
        case .activity: return nil
        }
        super.init(timestamp: time)
    }

    /// Which state changed.
    open var kind: Kind { storedKind }
    /// Whether the state is on now: moving, tilted, vibrating (always true for an orientation).
    open var isActive: Bool { storedActive }
    /// The orientation, for ``Kind/orientation``: `face_up`, `face_down`, `portrait`, `portrait_upside_down`,
    /// `landscape_left` or `landscape_right`; nil for the other kinds.
    open var orientation: String? { storedOrientation }
    /// The tilt angle (rad) or vibration level (g) at the change; nil for the other kinds.
    open var value: Double? { storedValue }
}

/// The block type for motion events: the event (nil on error) and an error in ``CMErrorDomain``.
public typealias CMLinuxMotionEventHandler = (CMLinuxMotionEvent?, (any Error)?) -> Void

/// The block type for motion-state changes: the change (nil on error) and an error in ``CMErrorDomain``.
public typealias CMLinuxMotionStateHandler = (CMLinuxMotionStateChange?, (any Error)?) -> Void
