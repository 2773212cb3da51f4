/// Something a motion detector found at one moment: a free fall, an impact, a tap. Pure value.
public struct MotionEvent: Sendable, Equatable {
    /// What happened.
    public enum Kind: String, Sendable, CaseIterable {
        /// The device fell freely (specific force near zero); ``MotionEvent/magnitude`` is the height the
        /// fall implies, m.
        case freeFall = "free_fall"
        /// A blow: a short peak of the specific force; ``MotionEvent/magnitude`` is the peak, g.
        case impact
        /// A single tap on the device; ``MotionEvent/magnitude`` is the peak of the user acceleration, g.
        case tap
        /// Two taps in quick succession; ``MotionEvent/magnitude`` is the larger peak, g.
        case doubleTap = "double_tap"
        /// The device was shaken (several quick reversals); ``MotionEvent/magnitude`` is the peak user
        /// acceleration, g.
        case shake
    }

    /// What happened.
    public var kind: Kind
    /// When it began, s (the samples' clock).
    public var timestamp: Double
    /// How long it lasted, s.
    public var duration: Double
    /// How strong it was, in the unit its ``Kind`` names.
    public var magnitude: Double

    /// Creates an event.
    /// - Parameters:
    ///   - kind: what happened.
    ///   - timestamp: when it began, s.
    ///   - duration: s.
    ///   - magnitude: in the kind's unit.
    public init(kind: Kind, timestamp: Double, duration: Double, magnitude: Double) {
        self.kind = kind
        self.timestamp = timestamp
        self.duration = duration
        self.magnitude = magnitude
    }
}
