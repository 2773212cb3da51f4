/// A rotating machine seen from its bearing housing, running steadily: what `motion=machine` simulates
/// (`rpm=` and `severity=` set its speed and its vibration). The device lies face up on the housing
/// (attitude the identity) with x and y radial and z along the shaft (axial).
///
/// Its vibration is the sum of the faults condition monitoring looks for, each a sine of the velocity at an
/// order of the running speed, sharing the velocity mean square by fixed fractions:
/// - unbalance: 1×, radial (x), 70 %;
/// - misalignment: 2×, axial (z), 15 %;
/// - looseness: 3× and 4×, radial (y), 5 % each;
/// - an outer-race bearing defect: ``bearingOrder``× (3.57 by default, a typical ball-pass order), radial
///   (x), 5 %.
///
/// Ground truth: the velocity RMS of the vector is ``severity`` mm/s exactly (before any band's
/// attenuation), the 1× line is at `rpm / 60` Hz, and each component's amplitude follows from its share.
/// Every line must lie below half the sample rate (the simulator does not filter like a chip's
/// anti-aliasing low-pass): at 1480 rpm the highest, 4×, is at 99 Hz.
public struct SimulatedMachine: Sendable, Equatable {
    /// Running speed, revolutions per minute (default 1480: a four-pole motor on 50 Hz).
    public var rpm: Double
    /// Velocity RMS of the vector, mm/s (default 2.8: the B/C boundary of a class II machine).
    public var severity: Double
    /// The bearing defect's order of the running speed (default 3.57).
    public var bearingOrder: Double

    /// One component: its order of the running speed, its axis (device frame) and its share of the
    /// velocity mean square.
    public struct Component: Sendable, Equatable {
        public var order: Double
        public var axis: SIMD3<Double>
        public var share: Double
    }

    /// Creates a machine; every parameter has the documented default.
    /// - Parameters:
    ///   - rpm: revolutions per minute, > 0.
    ///   - severity: mm/s RMS, ≥ 0.
    ///   - bearingOrder: > 0.
    public init(rpm: Double = 1480, severity: Double = 2.8, bearingOrder: Double = 3.57) {
        self.rpm = rpm
        self.severity = severity
        self.bearingOrder = bearingOrder
    }

    /// The running speed, Hz.
    public var runningFrequency: Double { rpm / 60 }

    /// The components, in the order listed above (shares adding up to 1).
    public var components: [Component] {
        [
            Component(order: 1, axis: SIMD3(1, 0, 0), share: 0.70),
            Component(order: 2, axis: SIMD3(0, 0, 1), share: 0.15),
            Component(order: 3, axis: SIMD3(0, 1, 0), share: 0.05),
            Component(order: 4, axis: SIMD3(0, 1, 0), share: 0.05),
            Component(order: bearingOrder, axis: SIMD3(1, 0, 0), share: 0.05),
        ]
    }

    func kinematics(at time: Double) -> SimulatedKinematics {
        var position = SIMD3<Double>.zero, velocity = SIMD3<Double>.zero, acceleration = SIMD3<Double>.zero
        for component in components {
            // Velocity RMS of the component, m/s, and its sine's amplitude.
            let amplitude = (severity / 1000 * component.share.squareRoot()) * 2.0.squareRoot()
            let frequency = component.order * runningFrequency
            let omega = 2 * Double.pi * frequency
            let sine = ScenarioProfile.sine(frequency: frequency, at: time)
            // position = (A/ω)·sin(ωt): velocity A·cos(ωt), acceleration −A·ω·sin(ωt).
            position += component.axis * (amplitude / omega * sine.value)
            velocity += component.axis * (amplitude / omega * sine.derivative)
            acceleration += component.axis * (amplitude / omega * sine.secondDerivative)
        }
        return SimulatedKinematics(attitude: .identity, position: position, velocity: velocity, acceleration: acceleration)
    }
}
