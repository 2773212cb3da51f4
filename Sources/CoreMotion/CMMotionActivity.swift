import MotionFusion

/// The confidence of a motion activity estimate.
public enum CMMotionActivityConfidence: Int, Sendable {
    /// Low confidence (the activity has held for under 5 s).
    case low = 0
    /// Medium confidence (5 to 15 s).
    case medium = 1
    /// High confidence (over 15 s).
    case high = 2
}

/// The data for a single motion update event: what the wearer was doing from ``startDate`` on. Immutable.
/// ``automotive`` and ``cycling`` are never set on Linux (the board does not tell them from other motion
/// without steps, which is ``unknown``).
open class CMMotionActivity: CMLogItem {
    private let estimate: MotionActivityEstimate
    private let storedStartDate: Date

    init(_ estimate: MotionActivityEstimate) {
        self.estimate = estimate
        storedStartDate = BootClock.date(atUptime: estimate.since)
        super.init(timestamp: estimate.since)
    }

    /// Creates an unknown activity of low confidence at timestamp 0: for subclasses and test doubles, as
    /// Apple's `init()` is.
    public override init() {
        estimate = MotionActivityEstimate(activity: .unknown, confidence: .low, since: 0)
        storedStartDate = BootClock.date(atUptime: 0)
        super.init(timestamp: 0)
    }

    /// The confidence in the assessment of the motion type.
    open var confidence: CMMotionActivityConfidence {
        switch estimate.confidence {
        case .low: .low
        case .medium: .medium
        case .high: .high
        }
    }
    /// The time at which the change in motion occurred.
    open var startDate: Date { storedStartDate }
    /// Whether the type of motion is unknown.
    open var unknown: Bool { estimate.activity == .unknown }
    /// Whether the device is stationary.
    open var stationary: Bool { estimate.activity == .stationary }
    /// Whether the device is on a walking person.
    open var walking: Bool { estimate.activity == .walking }
    /// Whether the device is on a running person.
    open var running: Bool { estimate.activity == .running }
    /// Whether the device is in an automobile (never on Linux).
    open var automotive: Bool { false }
    /// Whether the device is in a bicycle (never on Linux).
    open var cycling: Bool { false }

    /// The activities by their archived number (the model's order, which never changes).
    private static let activities = MotionActivityKind.allCases

    /// Archives the activity: `timestamp`, `activity` (0 stationary, 1 walking, 2 running, 3 unknown),
    /// `confidence` (its raw value) and `startDate` (s since 1970).
    open override func encode(with coder: NSCoder) {
        super.encode(with: coder)
        coder.encode(Self.activities.firstIndex(of: estimate.activity) ?? 3, forKey: "activity")
        coder.encode(confidence.rawValue, forKey: "confidence")
        coder.encode(date: storedStartDate, forKey: "startDate")
    }

    /// Reads an archived activity; nil when a value is missing or unknown.
    public required init?(coder: NSCoder) {
        let number = coder.decodeInteger(forKey: "activity")
        guard coder.containsValue(forKey: "activity"), Self.activities.indices.contains(number), coder.containsValue(forKey: "confidence"),
            let confidence = CMMotionActivityConfidence(rawValue: coder.decodeInteger(forKey: "confidence")),
            let start = coder.decodeDate(forKey: "startDate"), let since = coder.decodeRequiredDouble(forKey: "timestamp")
        else { return nil }
        let level: MotionActivityEstimate.Confidence =
            switch confidence {
            case .low: .low
            case .medium: .medium
            case .high: .high
            }
        estimate = MotionActivityEstimate(activity: Self.activities[number], confidence: level, since: since)
        storedStartDate = start
        super.init(coder: coder)
    }
}

/// The block type for receiving activity updates: the activity (or nil when it cannot be determined).
public typealias CMMotionActivityHandler = (CMMotionActivity?) -> Void

/// The block type for receiving historical activity data: the activities (nil on error) and an error in
/// ``CMErrorDomain``.
public typealias CMMotionActivityQueryHandler = ([CMMotionActivity]?, (any Error)?) -> Void
