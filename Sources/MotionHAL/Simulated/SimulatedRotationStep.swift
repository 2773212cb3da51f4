import MotionMath

/// One leg of a ``SimulatedMotion/rotationSequence(initialAttitude:steps:)``: a constant body-frame
/// angular velocity held for a duration.
public struct SimulatedRotationStep: Sendable, Equatable {
    /// How long the step lasts, s (≥ 0).
    public var duration: Double
    /// Angular velocity about the body axes during the step, rad/s.
    public var angularVelocity: SIMD3<Double>

    /// Creates a step.
    /// - Parameters:
    ///   - duration: how long the step lasts, s; must be finite and ≥ 0.
    ///   - angularVelocity: constant body-frame angular velocity, rad/s.
    public init(duration: Double, angularVelocity: SIMD3<Double>) {
        precondition(duration.isFinite && duration >= 0, "a rotation step needs a finite duration ≥ 0 s")
        self.duration = duration
        self.angularVelocity = angularVelocity
    }
}
