/// A fall of the wearer and how it was resolved (Apple's `CMFallDetectionEvent`, watchOS). Made only by
/// ``CMFallDetectionManager``. Immutable.
open class CMFallDetectionEvent: NSObject {
    /// How the wearer answered the fall alert.
    public enum UserResolution: Int, Sendable {
        /// The user confirmed the fall (an Apple Watch's alert; never on a board, which has no alert).
        case confirmed = 0
        /// The alert was dismissed: on a board, the wearer got up within the response window.
        case dismissed = 1
        /// The user said they did not fall (an Apple Watch's alert; never on a board).
        case rejected = 2
        /// No answer and no recovery motion within the response window.
        case unresponsive = 3
    }

    private let storedDate: Date
    private let storedResolution: UserResolution

    /// When the fall was detected (its impact).
    open var date: Date { storedDate }
    /// How the fall was resolved.
    open var resolution: UserResolution { storedResolution }

    /// Unavailable, as Apple's: events come from the manager.
    @available(*, unavailable, message: "fall detection events come from CMFallDetectionManager")
    public override init() {
        fatalError("CMFallDetectionEvent() is unavailable")
    }

    /// Creates an event.
    init(date: Date, resolution: UserResolution) {
        storedDate = date
        storedResolution = resolution
        super.init()
    }
}
