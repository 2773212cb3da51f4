/// A change of whether the device is under water (Apple's `CMWaterSubmersionEvent`). Immutable.
open class CMWaterSubmersionEvent: NSObject, NSCopying, NSSecureCoding {
    /// Whether the device is under water.
    public enum State: Int, Sendable {
        /// Not known (no reading yet, or the sensor failed).
        case unknown = 0
        /// The device is not under water.
        case notSubmerged = 1
        /// The device is under water.
        case submerged = 2
    }

    private let storedDate: Date
    private let storedState: State

    /// When the state changed.
    open var date: Date { storedDate }
    /// The new state.
    open var state: State { storedState }

    /// Creates an unknown state at the reference date.
    public override init() {
        storedDate = Date(timeIntervalSinceReferenceDate: 0)
        storedState = .unknown
        super.init()
    }

    /// Creates an event.
    init(date: Date, state: State) {
        storedDate = date
        storedState = state
        super.init()
    }

    /// Returns the receiver itself: the event is immutable.
    open func copy(with zone: NSZone? = nil) -> Any { self }

    /// True.
    public class var supportsSecureCoding: Bool { true }

    /// Archives the event (`date`, `state`).
    open func encode(with coder: NSCoder) {
        coder.encode(date: storedDate, forKey: "date")
        coder.encode(storedState.rawValue, forKey: "state")
    }

    /// Reads an archived event; nil when a value is missing.
    public required init?(coder: NSCoder) {
        guard let date = coder.decodeDate(forKey: "date"), let state = State(rawValue: coder.decodeInteger(forKey: "state")) else { return nil }
        storedDate = date
        storedState = state
        super.init()
    }
}
