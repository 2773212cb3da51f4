import MotionModel

/// Stationary, walking, running or unknown, from the rest ↔ motion state and the pedometer: while steps
/// come (the last less than ``stepTimeout`` ago) a cadence below ``runningCadence`` is walking and one at or
/// above it running (people walk at 1.4–2.2 steps/s and run at 2.5–3.3); a first step, without a cadence
/// yet, changes nothing. A device still moving after its steps stopped keeps walking or running for
/// ``unknownTime`` after the last step, then is unknown (carried, handled, in a vehicle); at rest it is
/// stationary. The confidence grows with the time the activity has held: low, medium after
/// ``mediumConfidenceTime``, high after ``highConfidenceTime``. Automotive and cycling are not told apart
/// from "unknown". Pure value; times in s.
public struct MotionActivityClassifier: Sendable {
    /// Cadence from which a gait is running, steps/s. Default 2.4.
    public let runningCadence: Double
    /// Steps count as coming while the last is this recent, s. Default 2.
    public let stepTimeout: Double
    /// Time without a step after which a device still moving is unknown, s. Default 5.
    public let unknownTime: Double
    /// Time after which the confidence is medium, s. Default 5.
    public let mediumConfidenceTime: Double
    /// Time after which it is high, s. Default 15.
    public let highConfidenceTime: Double

    /// The estimate now (nil before the first update).
    public private(set) var estimate: MotionActivityEstimate?

    /// Creates a classifier; every parameter has the documented default (the cadence that of ``ActivitySettings``).
    public init(
        runningCadence: Double = ActivitySettings().runningCadence, stepTimeout: Double = 2, unknownTime: Double = 5, mediumConfidenceTime: Double = 5,
        highConfidenceTime: Double = 15
    ) {
        self.runningCadence = runningCadence
        self.stepTimeout = stepTimeout
        self.unknownTime = unknownTime
        self.mediumConfidenceTime = mediumConfidenceTime
        self.highConfidenceTime = highConfidenceTime
    }

    /// Feeds one sample's evidence.
    /// - Parameters:
    ///   - isMoving: the rest ↔ motion state.
    ///   - cadence: the pedometer's steps/s, nil without recent steps.
    ///   - lastStep: time of the last step, s (−∞ before the first).
    ///   - timestamp: s.
    /// - Returns: the estimate when its activity or confidence changed.
    public mutating func update(isMoving: Bool, cadence: Double?, lastStep: Double, timestamp: Double) -> MotionActivityEstimate? {
        let sinceStep = timestamp - lastStep
        let previous = estimate?.activity ?? .stationary
        let gait = previous == .walking || previous == .running
        let activity: MotionActivityEstimate.Activity
        if sinceStep < stepTimeout {
            activity = cadence.map { $0 >= runningCadence ? .running : .walking } ?? previous
        } else if isMoving {
            activity = gait && sinceStep < unknownTime ? previous : .unknown
        } else {
            activity = .stationary
        }
        let since = estimate.flatMap { $0.activity == activity ? $0.since : nil } ?? timestamp
        let held = timestamp - since
        let confidence: MotionActivityEstimate.Confidence =
            held >= highConfidenceTime ? .high : held >= mediumConfidenceTime ? .medium : .low
        let next = MotionActivityEstimate(activity: activity, confidence: confidence, since: since)
        guard next != estimate else { return nil }
        estimate = next
        return next
    }
}
