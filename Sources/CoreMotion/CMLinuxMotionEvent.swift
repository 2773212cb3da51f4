import MotionFusion

/// Something the board's motion detectors found at one moment: a free fall, an impact, a tap, a double tap
/// or a shake (a Linux addition; Apple's CoreMotion has no such class). Immutable.
open class CMLinuxMotionEvent: CMLogItem {
    /// What happened: `freeFall`, `impact`, `tap`, `doubleTap`, `shake` (the detectors' own kinds,
    /// ``MotionEventKind``; each names the unit of ``magnitude``).
    public typealias Kind = MotionEventKind

    private let event: MotionEvent

    init(_ event: MotionEvent) {
        self.event = event
        super.init(timestamp: event.timestamp)
    }

    /// What happened.
    open var kind: Kind { event.kind }
    /// How long it lasted, s (its start is ``timestamp``).
    open var duration: TimeInterval { event.duration }
    /// How strong it was, in the unit ``kind`` names.
    open var magnitude: Double { event.magnitude }

    /// Archives the event: `timestamp`, `kind` (its index in ``Kind/allCases``), `duration` and `magnitude`.
    open override func encode(with coder: NSCoder) {
        super.encode(with: coder)
        coder.encode(MotionEvent.Kind.allCases.firstIndex(of: event.kind) ?? 0, forKey: "kind")
        coder.encode(event.duration, forKey: "duration")
        coder.encode(event.magnitude, forKey: "magnitude")
    }

    /// Reads an archived event; nil when a value is missing or unknown.
    public required init?(coder: NSCoder) {
        let kind = coder.decodeInteger(forKey: "kind")
        guard coder.containsValue(forKey: "kind"), MotionEvent.Kind.allCases.indices.contains(kind),
            let timestamp = coder.decodeRequiredDouble(forKey: "timestamp"), let duration = coder.decodeRequiredDouble(forKey: "duration"),
            let magnitude = coder.decodeRequiredDouble(forKey: "magnitude")
        else { return nil }
        event = MotionEvent(kind: MotionEvent.Kind.allCases[kind], timestamp: timestamp, duration: duration, magnitude: magnitude)
        super.init(coder: coder)
    }
}

/// A state the board's motion detectors keep, as it changed (a Linux addition). Immutable.
open class CMLinuxMotionStateChange: CMLogItem {
    /// Which state changed: `moving`, `orientation`, `tilt`, `vibration` (the detectors' own kinds,
    /// ``MotionStateKind``). Its `activity` is never delivered here: activity changes come as
    /// `CMMotionActivity`, from `CMMotionActivityManager`.
    public typealias Kind = MotionStateKind

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

    /// Archives the change: `timestamp`, `kind` (its index in ``Kind/allCases``), `active`, `orientation`
    /// (an index into the orientations, when there is one) and `value` (when there is one).
    open override func encode(with coder: NSCoder) {
        super.encode(with: coder)
        coder.encode(Kind.allCases.firstIndex(of: storedKind) ?? 0, forKey: "kind")
        coder.encode(storedActive, forKey: "active")
        let orientations = DeviceOrientationDetector.Orientation.allCases.map(\.rawValue)
        if let orientation = storedOrientation, let index = orientations.firstIndex(of: orientation) {
            coder.encode(index, forKey: "orientation")
        }
        coder.encodeIfPresent(storedValue, forKey: "value")
    }

    /// Reads an archived change; nil when a value is missing or unknown.
    public required init?(coder: NSCoder) {
        let kind = coder.decodeInteger(forKey: "kind")
        let orientations = DeviceOrientationDetector.Orientation.allCases.map(\.rawValue)
        let orientation = coder.containsValue(forKey: "orientation") ? coder.decodeInteger(forKey: "orientation") : nil
        guard coder.containsValue(forKey: "kind"), Kind.allCases.indices.contains(kind), Kind.allCases[kind] != .activity,
            coder.containsValue(forKey: "active"),
            orientation.map(orientations.indices.contains) ?? true
        else { return nil }
        storedKind = Kind.allCases[kind]
        storedActive = coder.decodeBool(forKey: "active")
        storedOrientation = orientation.map { orientations[$0] }
        storedValue = coder.decodeRequiredDouble(forKey: "value")
        super.init(coder: coder)
    }
}

/// The block type for motion events: the event (nil on error) and an error in ``CMErrorDomain``.
public typealias CMLinuxMotionEventHandler = (CMLinuxMotionEvent?, (any Error)?) -> Void

/// The block type for motion-state changes: the change (nil on error) and an error in ``CMErrorDomain``.
public typealias CMLinuxMotionStateHandler = (CMLinuxMotionStateChange?, (any Error)?) -> Void
