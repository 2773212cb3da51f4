/// What a motion detector found at one moment. The raw values are the names the contract writes
/// (`{base}/events`' `type`), and the case order is part of CoreMotion's archive format: append, never
/// reorder.
public enum MotionEventKind: String, Sendable, Hashable, CaseIterable {
    /// The device fell freely (specific force near zero); the magnitude is the height the fall's duration
    /// implies (g·t²/2), m.
    case freeFall = "free_fall"
    /// A blow: a short peak of the specific force; the magnitude is the peak, g.
    case impact
    /// A single tap on the device; the magnitude is the peak of the user acceleration, g.
    case tap
    /// Two taps in quick succession; the magnitude is the larger peak, g.
    case doubleTap = "double_tap"
    /// The device was shaken (several quick reversals); the magnitude is the peak user acceleration, g.
    case shake
}
