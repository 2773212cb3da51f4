import MotionMath

/// A device lying face up that is tilted about its x axis and back: what `motion=tilt` simulates.
///
/// Each ``period``: face up for 2 s, tilted smoothly to ``angle`` over 1 s (a quintic smooth step), held for
/// 4 s, tilted back over 1 s, face up for the rest. At the default 60° the y axis is closer to vertical
/// than z, so the orientation turns from face up to portrait and back. No translation.
///
/// Ground truth: ``angle(at:)``.
public struct SimulatedTilt: Sendable, Equatable {
    /// The tilt, rad (default 60°, π/3).
    public var angle: Double
    /// Length of one tilt and return, s (default 12); at least 8.
    public var period: Double

    /// Creates a tilt; every parameter has the documented default.
    /// - Parameters:
    ///   - angle: rad.
    ///   - period: s.
    public init(angle: Double = .pi / 3, period: Double = 12) {
        self.angle = angle
        self.period = period
    }

    /// The tilt from face up at `time` s, rad.
    public func angle(at time: Double) -> Double { profile(at: time).value }

    private func profile(at time: Double) -> ScenarioProfile {
        let phase = time.phase(inPeriod: max(period, 8))
        let up = ScenarioProfile.smoothStep(at: phase - 2, duration: 1)
        let down = ScenarioProfile.smoothStep(at: phase - 7, duration: 1)
        return angle * (up + (-1) * down)
    }

    func kinematics(at time: Double) -> SimulatedKinematics {
        let tilt = profile(at: time)
        // One fixed axis: the body rate is the angle's rate about it.
        return SimulatedKinematics(
            attitude: Quaternion(axis: SIMD3(1, 0, 0), angle: tilt.value), angularVelocity: SIMD3(tilt.derivative, 0, 0))
    }
}
