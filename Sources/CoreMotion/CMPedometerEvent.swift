/// The type of a pedometer event.
public enum CMPedometerEventType: Int, Sendable {
    /// The user stopped walking or running.
    case pause = 0
    /// The user started (again) to walk or run.
    case resume = 1
}

/// A change in the user's pedestrian activity. Immutable.
open class CMPedometerEvent: NSObject, NSCopying, NSSecureCoding {
    private let storedDate: Date
    private let storedType: CMPedometerEventType

    init(date: Date, type: CMPedometerEventType) {
        storedDate = date
        storedType = type
        super.init()
    }

    /// Creates a pause at 1970-01-01: for subclasses and test doubles, as Apple's `init()` is.
    public override init() {
        storedDate = Date(timeIntervalSince1970: 0)
        storedType = .pause
        super.init()
    }

    /// The time at which the event occurred.
    open var date: Date { storedDate }
    /// The type of pedometer event.
    open var type: CMPedometerEventType { storedType }

    /// Returns the receiver itself: the event is immutable.
    open func copy(with zone: NSZone? = nil) -> Any { self }

    /// True: the event decodes only its date and type.
    public class var supportsSecureCoding: Bool { true }

    /// Archives the event: `date` (s since 1970) and `type` (its raw value).
    open func encode(with coder: NSCoder) {
        coder.encode(date: storedDate, forKey: "date")
        coder.encode(storedType.rawValue, forKey: "type")
    }

    /// Reads an archived event; nil when a value is missing or the type unknown.
    public required init?(coder: NSCoder) {
        guard let date = coder.decodeDate(forKey: "date"), coder.containsValue(forKey: "type"),
            let type = CMPedometerEventType(rawValue: coder.decodeInteger(forKey: "type"))
        else { return nil }
        storedDate = date
        storedType = type
        super.init()
    }
}

/// The block type for handling pedometer data: the data (nil on error) and an error in ``CMErrorDomain``.
public typealias CMPedometerHandler = (CMPedometerData?, (any Error)?) -> Void

/// The block type for handling pedometer events: the event (nil on error) and an error in ``CMErrorDomain``.
public typealias CMPedometerEventHandler = (CMPedometerEvent?, (any Error)?) -> Void
