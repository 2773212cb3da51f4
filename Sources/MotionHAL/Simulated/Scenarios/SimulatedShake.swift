/// Shaking the device back and forth, in bursts: what `motion=shake` simulates.
///
/// Each ``period``, 2 s after its start, the device is shaken along its x axis (east; attitude the identity)
/// for ``duration`` s at ``frequency``: displacement `X · sin²(π τ / D) · sin(2π f τ)` with
/// `X = acceleration / (2π f)²`, so the user acceleration peaks near ``acceleration`` in the middle of the
/// burst and grows and fades smoothly. Ground truth: one shake per burst, none between.
public struct SimulatedShake: Sendable, Equatable {
    /// Shaking frequency, Hz (default 4).
    public var frequency: Double
    /// Peak acceleration of the shaking, m/s² (default 20, about 2 g).
    public var acceleration: Double
    /// Length of a burst, s (default 1.5).
    public var duration: Double
    /// Time from one burst's start to the next, s (default 6); at least `duration + 2`.
    public var period: Double

    /// When each burst starts, s after the start of its period.
    public let burstStart = 2.0

    /// Creates a shake; every parameter has the documented default.
    /// - Parameters:
    ///   - frequency: Hz.
    ///   - acceleration: m/s².
    ///   - duration: s.
    ///   - period: s.
    public init(frequency: Double = 4, acceleration: Double = 20, duration: Double = 1.5, period: Double = 6) {
        self.frequency = frequency
        self.acceleration = acceleration
        self.duration = duration
        self.period = period
    }

    func kinematics(at time: Double) -> SimulatedKinematics {
        let elapsed = time.phase(inPeriod: max(period, duration + burstStart)) - burstStart
        guard elapsed > 0, elapsed < duration else { return SimulatedKinematics(attitude: .identity) }
        let omega = 2 * Double.pi * frequency
        // sin²(πτ/D) = (1 − cos(2πτ/D)) / 2.
        let cosine = ScenarioProfile.cosine(frequency: 1 / duration, at: elapsed)
        let window = ScenarioProfile.constant(0.5) + (-0.5) * cosine
        let east = (acceleration / (omega * omega)) * (window * ScenarioProfile.sine(frequency: frequency, at: elapsed))
        return SimulatedKinematics(
            attitude: .identity, position: SIMD3(east.value, 0, 0), velocity: SIMD3(east.derivative, 0, 0),
            acceleration: SIMD3(east.secondDerivative, 0, 0))
    }
}
