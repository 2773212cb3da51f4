/// A machine that vibrates for a while and stops: what `motion=vibrate` simulates.
///
/// Each ``period``: still for 2 s, then vibrating along the device's z axis (face up, attitude the
/// identity) at ``frequency`` with peak acceleration ``acceleration`` for ``runTime`` s, its amplitude rising
/// and falling over 0.5 s (quintic smooth steps), then still until the period ends. The frequency must be
/// below half the sample rate (the simulator does not filter like a chip's anti-aliasing low-pass).
///
/// Ground truth: vibrating between 2 s and `2 + runTime` s of each period (RMS `acceleration / √2`), no
/// shake or tap.
public struct SimulatedVibration: Sendable, Equatable {
    /// Vibration frequency, Hz (default 40).
    public var frequency: Double
    /// Peak acceleration, m/s² (default 4.9, 0.5 g; RMS 0.35 g).
    public var acceleration: Double
    /// How long the machine runs each period, s (default 10).
    public var runTime: Double
    /// Length of one run and stop, s (default 25: 15 s still, long enough for a meter to call it stopped); at
    /// least `runTime + 3`.
    public var period: Double

    /// When each run starts, s after the start of its period.
    public let runStart = 2.0

    /// Creates a vibration; every parameter has the documented default.
    /// - Parameters:
    ///   - frequency: Hz.
    ///   - acceleration: m/s².
    ///   - runTime: s.
    ///   - period: s.
    public init(frequency: Double = 40, acceleration: Double = 4.9, runTime: Double = 10, period: Double = 25) {
        self.frequency = frequency
        self.acceleration = acceleration
        self.runTime = runTime
        self.period = period
    }

    /// Whether the machine runs at `time` s (its amplitude above half).
    public func isRunning(at time: Double) -> Bool {
        let phase = time.phase(inPeriod: max(period, runTime + 3)) - runStart
        return phase > 0.25 && phase < runTime - 0.25
    }

    func kinematics(at time: Double) -> SimulatedKinematics {
        let phase = time.phase(inPeriod: max(period, runTime + 3)) - runStart
        guard phase > 0, phase < runTime else { return SimulatedKinematics(attitude: .identity) }
        let envelope = ScenarioProfile.smoothStep(at: phase, duration: 0.5) + (-1) * ScenarioProfile.smoothStep(at: phase - (runTime - 0.5), duration: 0.5)
        let omega = 2 * Double.pi * frequency
        let up = (acceleration / (omega * omega)) * (envelope * ScenarioProfile.sine(frequency: frequency, at: phase))
        return SimulatedKinematics(
            attitude: .identity, position: SIMD3(0, 0, up.value), velocity: SIMD3(0, 0, up.derivative),
            acceleration: SIMD3(0, 0, up.secondDerivative))
    }
}
