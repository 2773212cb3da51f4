/// What a device's wearer is doing, as far as the board can tell: the core of `CMMotionActivity`. Pure value.
public struct MotionActivityEstimate: Sendable, Equatable {
    /// The activity.
    public enum Activity: String, Sendable, CaseIterable {
        /// Not moving.
        case stationary
        /// Moving with steps at a walking cadence.
        case walking
        /// Moving with steps at a running cadence.
        case running
        /// Moving without steps (carried, handled, in a vehicle): what it is cannot be told.
        case unknown
    }

    /// How sure the estimate is, by how long its evidence has lasted.
    public enum Confidence: Int, Sendable, Comparable, CaseIterable {
        /// Evidence for under ``MotionActivityClassifier/mediumConfidenceTime``.
        case low
        /// Evidence for under ``MotionActivityClassifier/highConfidenceTime``.
        case medium
        /// Evidence for longer.
        case high

        public static func < (lhs: Confidence, rhs: Confidence) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The activity.
    public var activity: Activity
    /// How sure.
    public var confidence: Confidence
    /// Since when the activity holds, s (the samples' clock).
    public var since: Double

    /// Creates an estimate.
    /// - Parameters:
    ///   - activity: the activity.
    ///   - confidence: how sure.
    ///   - since: s.
    public init(activity: Activity, confidence: Confidence, since: Double) {
        self.activity = activity
        self.confidence = confidence
        self.since = since
    }
}
