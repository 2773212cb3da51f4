import MotionModel

/// Rest ↔ motion (Android's "significant motion"): the device is moving once its low-passed own
/// acceleration exceeds ``accelerationThreshold`` or its low-passed rotation rate ``rotationThreshold`` for
/// ``confirmTime``; it is at rest again once both have stayed below half their thresholds for
/// ``settleTime``. Pure value, fed at the sensor rate; accelerations in g, rates in rad/s, times in s.
public struct MotionActivityStateDetector: Sendable {
    /// Moving above this low-passed acceleration, g. Default 0.05 g.
    public let accelerationThreshold: Double
    /// Moving above this low-passed rotation rate, rad/s. Default 0.2 rad/s.
    public let rotationThreshold: Double
    /// How long the thresholds must be exceeded, s. Default 0.5 s.
    public let confirmTime: Double
    /// How long both must stay below half their thresholds for rest, s. Default 2 s.
    public let settleTime: Double

    /// Whether the device is moving now.
    public var isMoving: Bool { state.isOn }
    private var state: DebouncedState
    private var levels = (acceleration: 0.0, rotation: 0.0)
    private var sampleStep = SampleStep()

    /// Creates a detector; every parameter has the default of ``MovingSettings``.
    public init(
        accelerationThreshold: Double = MovingSettings().acceleration, rotationThreshold: Double = MovingSettings().rotation,
        confirmTime: Double = MovingSettings().confirm, settleTime: Double = MovingSettings().settle
    ) {
        self.accelerationThreshold = accelerationThreshold
        self.rotationThreshold = rotationThreshold
        self.confirmTime = confirmTime
        self.settleTime = settleTime
        state = DebouncedState(onTime: confirmTime, offTime: settleTime)
    }

    /// Feeds one sample.
    /// - Parameters:
    ///   - acceleration: magnitude of the device's own acceleration, g: the user acceleration, or (as
    ///     ``MotionDetectorBank`` feeds it) the specific force's deviation from its recent mean, which carries
    ///     no error of the attitude.
    ///   - rotationRate: magnitude, rad/s.
    ///   - timestamp: s.
    /// - Returns: the new state when it changed.
    public mutating func update(acceleration: Double, rotationRate: Double, timestamp: Double) -> Bool? {
        let step = sampleStep.advance(to: timestamp)
        let gain = min(step / 0.2, 1)  // 0.2 s time constant
        levels.acceleration += (acceleration - levels.acceleration) * gain
        levels.rotation += (rotationRate - levels.rotation) * gain
        let crossing =
            isMoving
            ? levels.acceleration < accelerationThreshold / 2 && levels.rotation < rotationThreshold / 2
            : levels.acceleration > accelerationThreshold || levels.rotation > rotationThreshold
        return state.update(changeWanted: crossing, timestamp: timestamp)
    }
}
