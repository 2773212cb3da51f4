import MotionModel

/// Something a motion detector found at one moment: a free fall, an impact, a tap. Pure value.
public struct MotionEvent: Sendable, Equatable {
    /// What happened (the model's ``MotionEventKind``).
    public typealias Kind = MotionEventKind

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
