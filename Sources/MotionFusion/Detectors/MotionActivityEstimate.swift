import MotionModel

/// What a device's wearer is doing, as far as the board can tell: the core of `CMMotionActivity`. Pure value.
public struct MotionActivityEstimate: Sendable, Equatable {
    /// The activity (the model's ``MotionActivityKind``).
    public typealias Activity = MotionActivityKind

    /// How sure the estimate is (the model's ``MotionActivityConfidence``): low under
    /// ``MotionActivityClassifier/mediumConfidenceTime`` of evidence, medium under
    /// ``MotionActivityClassifier/highConfidenceTime``, high after.
    public typealias Confidence = MotionActivityConfidence

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
