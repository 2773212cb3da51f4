#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A rotating machine seen from its bearing housing: what `motion=machine` simulates (`rpm=`, `severity=`,
/// `faults=`, `bearing=`, `noise=`, `ramp=` and `cycle=` set it up). The device lies face up on the housing
/// (attitude the identity) with x and y radial and z along the shaft (axial).
///
/// Its vibration is the sum of the faults condition monitoring looks for (``faults``, all by default), each a
/// sine of the velocity at an order of the running speed, sharing the velocity mean square by fixed
/// fractions:
/// - unbalance: 1×, radial (x), 70 %;
/// - misalignment: 2×, axial (z), 15 %;
/// - looseness: 3× and 4×, radial (y), 5 % each;
/// - an outer-race bearing defect: ``bearingOrder``× (3.57 by default, a typical ball-pass order), radial
///   (x), 5 %.
///
/// With only some of the faults, their shares are scaled up to add up to 1 again (one fault alone carries
/// the whole severity). On top of these lines, ``noise`` adds broadband vibration: band-limited white
/// velocity noise over ``noiseBand`` (see ``SimulatedBroadbandNoise``), deterministic from ``noiseSeed``.
///
/// Start-up and coast-down: with ``ramp`` > 0 the machine runs in cycles of ``cycle`` s, each from standstill,
/// up linearly to `rpm` in `ramp` s, steady, down linearly to standstill in the last `ramp` s of the running
/// part, and still for `ramp` s: up [0, ramp), steady [ramp, cycle − 2·ramp), down [cycle − 2·ramp,
/// cycle − ramp), still [cycle − ramp, cycle). Every line's phase is the integral of its instantaneous
/// frequency (no jumps), and every amplitude, the noise's too, scales with the square of the speed's
/// fraction of `rpm` (an unbalance force grows as ω²), so a still machine does not vibrate. The acceleration
/// is the exact derivative of the velocity, the terms of the changing amplitude and frequency included; the
/// displacement is the steady one of the instantaneous amplitude and frequency (exact while the speed
/// holds, close during the ramps).
///
/// Ground truth: while running steadily, the velocity RMS of the vector is ``severity`` mm/s exactly
/// without noise and √(severity² + noise²) with it (before any band's attenuation; the noise's over its
/// band), the 1× line is at `rpm / 60` Hz (``rpm(at:)`` gives the speed at any time), and each component's
/// amplitude follows from its share. Every line must lie below half the sample rate (the simulator does not
/// filter like a chip's anti-aliasing low-pass): at 1480 rpm the highest, 4×, is at 99 Hz.
public struct SimulatedMachine: Sendable, Equatable {
    /// A fault whose lines the machine's vibration contains (`faults=` names them joined by `+`).
    public enum Fault: String, Sendable, CaseIterable {
        /// Unbalance: the 1× line, radial (x), 70 % of the velocity mean square.
        case unbalance
        /// Misalignment: the 2× line, axial (z), 15 %.
        case misalignment
        /// Mechanical looseness: the 3× and 4× lines, radial (y), 5 % each.
        case looseness
        /// An outer-race bearing defect: the ``SimulatedMachine/bearingOrder``× line, radial (x), 5 %.
        case bearing
    }

    /// Running speed while running steadily, revolutions per minute (default 1480: a four-pole motor on 50 Hz).
    public var rpm: Double
    /// Velocity RMS of the vector of the fault lines while running steadily, mm/s (default 2.8: the B/C
    /// boundary of a class II machine).
    public var severity: Double
    /// The bearing defect's order of the running speed, a multiple of it (default 3.57).
    public var bearingOrder: Double
    /// The faults whose lines the vibration contains (default all four; an empty set is a smooth machine).
    public var faults: Set<Fault>
    /// Length of the run-up, of the coast-down and of the standstill of each cycle, s (default 0: the
    /// machine runs steadily from the start).
    public var ramp: Double
    /// Length of one start-stop cycle when ``ramp`` > 0, s (default 60); must exceed 2 × `ramp` (a shorter
    /// one is taken as 2 × `ramp`). Under 3 × `ramp` there is no steady part: the coast-down starts where it
    /// meets the run-up, below `rpm`.
    public var cycle: Double

    /// Broadband vibration: the lines, frequencies and phases of the noise.
    private var broadband: SimulatedBroadbandNoise

    /// Velocity RMS of the vector of the broadband vibration while running steadily, mm/s (default 0:
    /// none), added on top of ``severity``.
    public var noise: Double {
        get { broadband.rms }
        set { broadband = SimulatedBroadbandNoise(rms: newValue, band: broadband.band, seed: broadband.seed) }
    }
    /// The band the broadband vibration fills, Hz (default 10...1000, ISO 20816-1's; the device string
    /// clips its top to 0.4 × the sample rate).
    public var noiseBand: ClosedRange<Double> {
        get { broadband.band }
        set { broadband = SimulatedBroadbandNoise(rms: broadband.rms, band: newValue, seed: broadband.seed) }
    }
    /// Seed of the broadband vibration's frequencies and phases (default 1; the device string passes the
    /// device's `seed=` when `noise` > 0). Without noise it changes nothing.
    public var noiseSeed: UInt64 {
        get { broadband.seed }
        set { broadband = SimulatedBroadbandNoise(rms: broadband.rms, band: broadband.band, seed: newValue) }
    }

    /// One component: its order of the running speed, its axis (device frame) and its share of the
    /// velocity mean square.
    public struct Component: Sendable, Equatable {
        /// Its frequency over the running speed's (1 for the 1× line).
        public var order: Double
        /// The unit vector it vibrates along, device frame.
        public var axis: SIMD3<Double>
        /// Its fraction of the velocity mean square of the fault lines (0…1).
        public var share: Double
        /// The fault it belongs to.
        public var fault: Fault
    }

    /// Creates a machine; every parameter has the documented default.
    /// - Parameters:
    ///   - rpm: revolutions per minute, > 0.
    ///   - severity: mm/s RMS, ≥ 0.
    ///   - bearingOrder: multiple of the running speed, > 0.
    ///   - faults: the faults present (default all).
    ///   - noise: broadband velocity RMS, mm/s, ≥ 0 (default 0).
    ///   - noiseBand: Hz, lower bound > 0 (default 10...1000).
    ///   - noiseSeed: the noise's seed (default 1).
    ///   - ramp: s, ≥ 0 (default 0: steady).
    ///   - cycle: s, > 2 × `ramp` when `ramp` > 0 (default 60).
    public init(
        rpm: Double = 1480, severity: Double = 2.8, bearingOrder: Double = 3.57, faults: Set<Fault> = Set(Fault.allCases),
        noise: Double = 0, noiseBand: ClosedRange<Double> = 10...1000, noiseSeed: UInt64 = 1, ramp: Double = 0, cycle: Double = 60
    ) {
        self.rpm = rpm
        self.severity = severity
        self.bearingOrder = bearingOrder
        self.faults = faults
        self.ramp = ramp
        self.cycle = cycle
        broadband = SimulatedBroadbandNoise(rms: noise, band: noiseBand, seed: noiseSeed)
    }

    /// The running speed while running steadily, Hz.
    public var runningFrequency: Double { rpm / 60 }

    /// The running speed at `time` s since the start of the trajectory, rpm: ``rpm`` when running steadily,
    /// less during the ramps, 0 at a standstill.
    public func rpm(at time: Double) -> Double {
        guard let speed else { return rpm }
        return rpm * speed.state(at: time).ratio
    }

    /// The components of ``faults``, in the order listed above (shares adding up to 1 when any).
    public var components: [Component] {
        let all = [
            Component(order: 1, axis: SIMD3(1, 0, 0), share: 0.70, fault: .unbalance),
            Component(order: 2, axis: SIMD3(0, 0, 1), share: 0.15, fault: .misalignment),
            Component(order: 3, axis: SIMD3(0, 1, 0), share: 0.05, fault: .looseness),
            Component(order: 4, axis: SIMD3(0, 1, 0), share: 0.05, fault: .looseness),
            Component(order: bearingOrder, axis: SIMD3(1, 0, 0), share: 0.05, fault: .bearing),
        ]
        // All four: the shares as they are (exactly the documented fractions).
        guard faults.count < Fault.allCases.count else { return all }
        var chosen = all.filter { faults.contains($0.fault) }
        let total = chosen.map(\.share).reduce(0, +)
        for index in chosen.indices { chosen[index].share /= total }
        return chosen
    }

    /// The start-stop cycle, nil when the machine runs steadily.
    private var speed: SimulatedMachineSpeed? {
        ramp > 0 ? SimulatedMachineSpeed(ramp: ramp, cycle: cycle) : nil
    }

    func kinematics(at time: Double) -> SimulatedKinematics {
        var position = SIMD3<Double>.zero, velocity = SIMD3<Double>.zero, acceleration = SIMD3<Double>.zero
        guard let speed else {
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
            if noise > 0 {
                let noise = broadband.kinematics(at: time)
                position += noise.position
                velocity += noise.velocity
                acceleration += noise.acceleration
            }
            return SimulatedKinematics(attitude: .identity, position: position, velocity: velocity, acceleration: acceleration)
        }
        // The speed's fraction r, its rate ṙ (1/s) and its integral S (s): each line's phase is ω·S (ω its
        // steady angular frequency), so its instantaneous frequency is ω·r. Amplitudes scale with e = r²,
        // ė = 2·r·ṙ.
        let (ratio, rate, runningTime) = speed.state(at: time)
        guard ratio > 0 else { return SimulatedKinematics(attitude: .identity) }
        let envelope = ratio * ratio, envelopeRate = 2 * ratio * rate
        for component in components {
            let amplitude = (severity / 1000 * component.share.squareRoot()) * 2.0.squareRoot()
            let omega = 2 * Double.pi * component.order * runningFrequency
            let angle = omega * runningTime
            let sine = sin(angle), cosine = cos(angle)
            // velocity A·e·cos(ωS): acceleration A·(ė·cos(ωS) − e·ω·r·sin(ωS)); displacement A·e/(ω·r)·sin(ωS).
            position += component.axis * (amplitude * ratio / omega * sine)
            velocity += component.axis * (amplitude * envelope * cosine)
            acceleration += component.axis * (amplitude * (envelopeRate * cosine - envelope * omega * ratio * sine))
        }
        if noise > 0 {
            // The broadband lines keep their frequencies (they are not orders); their amplitude follows e.
            let noise = broadband.kinematics(at: time)
            position += envelope * noise.position
            velocity += envelope * noise.velocity
            acceleration += envelopeRate * noise.velocity + envelope * noise.acceleration
        }
        return SimulatedKinematics(attitude: .identity, position: position, velocity: velocity, acceleration: acceleration)
    }
}
