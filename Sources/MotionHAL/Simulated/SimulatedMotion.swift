#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MotionMath

/// A known trajectory for the simulated IMU: attitude, angular velocity and linear acceleration as exact
/// functions of time (seconds since the start of the trajectory).
///
/// Every case defines the attitude in closed form and the angular velocity as its exact derivative, so
/// integrating the noise-free gyroscope reproduces the attitude. Attitudes rotate body → ENU
/// (x east, y north, z up); see ``Quaternion``.
public enum SimulatedMotion: Sendable, Equatable {
    /// Held still at a fixed attitude; no rotation, no translation.
    case stationary(attitude: Quaternion)

    /// Constant rotation about a body axis, starting from `initialAttitude`, without translation.
    ///
    /// The attitude at time t is `initialAttitude ⊗ rotation(axis, rate·t)`.
    /// - axis: body-frame rotation axis (any non-zero length).
    /// - rate: angular speed, rad/s (right-hand rule about `axis`).
    /// - initialAttitude: attitude at t = 0.
    case rotation(axis: SIMD3<Double>, rate: Double, initialAttitude: Quaternion = .identity)

    /// Piecewise-constant body rates, one ``SimulatedRotationStep`` after another, starting from
    /// `initialAttitude`; after the last step the device stays at the attitude reached. No translation.
    case rotationSequence(initialAttitude: Quaternion, steps: [SimulatedRotationStep])

    /// A gentle, smooth, bounded motion for live views: yaw ±46° (period ≈ 14 s), pitch ±20°
    /// (≈ 9 s), roll ±29° (≈ 7.7 s) as Z-Y-X Euler angles, and a translation of a few centimetres
    /// (linear acceleration at most 0.2 m/s² per axis).
    case demo

    /// Lifted and dropped onto a floor, again and again (`motion=drop`); see ``SimulatedDrop``.
    case drop(SimulatedDrop)

    /// Shaken back and forth in bursts (`motion=shake`); see ``SimulatedShake``.
    case shake(SimulatedShake)

    /// Lying face up and tapped: single and double taps (`motion=tap`); see ``SimulatedTaps``.
    case taps(SimulatedTaps)

    /// Tilted about its x axis and back (`motion=tilt`); see ``SimulatedTilt``.
    case tilt(SimulatedTilt)

    /// Walking, running or climbing stairs in bouts of known steps (`motion=walk|run|stairs`); see
    /// ``SimulatedGait``.
    case gait(SimulatedGait)

    /// A machine vibrating and stopping (`motion=vibrate`); see ``SimulatedVibration``.
    case vibration(SimulatedVibration)

    /// A person who falls hard, lies breathing and gets up (`motion=fall`); see ``SimulatedFall``.
    case fall(SimulatedFall)

    /// A person who sits down hard on a chair and stands up (`motion=sit`); see ``SimulatedSitDown``.
    case sitDown(SimulatedSitDown)

    /// A rotating machine's vibration with its faults' orders (`motion=machine`, with `rpm=` and
    /// `severity=`); see ``SimulatedMachine``.
    case machine(SimulatedMachine)

    /// A vertical-axis spin at 45 °/s from the identity attitude (face up): what `motion=spin` selects.
    public static let spin = SimulatedMotion.rotation(axis: SIMD3(0, 0, 1), rate: .pi / 4)

    /// The motions a device string names (`motion=NAME`), with their defaults, in the order messages list them.
    public static let named: [(name: String, motion: SimulatedMotion)] = [
        ("demo", .demo), ("stationary", .stationary(attitude: .identity)), ("spin", .spin), ("drop", .drop(SimulatedDrop())),
        ("shake", .shake(SimulatedShake())), ("tap", .taps(SimulatedTaps())), ("tilt", .tilt(SimulatedTilt())),
        ("walk", .gait(.walking)), ("run", .gait(.running)), ("stairs", .gait(.stairs())), ("vibrate", .vibration(SimulatedVibration())),
        ("fall", .fall(SimulatedFall())), ("table_drop", .drop(.ontoTable)), ("sit", .sitDown(SimulatedSitDown())),
        ("machine", .machine(SimulatedMachine())),
    ]

    /// The motion `motion=name` selects, nil for an unknown name.
    public init?(name: String) {
        guard let motion = Self.named.first(where: { $0.name == name })?.motion else { return nil }
        self = motion
    }

    /// The name that selects this motion, nil for one no name gives.
    public var name: String? { Self.named.first { $0.motion == self }?.name }

    /// The exact kinematic state at `time` seconds since the start of the trajectory, under `gravity` m/s²
    /// (a free fall accelerates at exactly that).
    func kinematics(at time: Double, gravity: Double) -> SimulatedKinematics {
        switch self {
        case .stationary(let attitude):
            return SimulatedKinematics(attitude: attitude)

        case .rotation(let axis, let rate, let initialAttitude):
            let unitAxis = axis / (axis * axis).sum().squareRoot()
            return SimulatedKinematics(
                attitude: initialAttitude * Quaternion(axis: unitAxis, angle: rate * time),
                angularVelocity: unitAxis * rate)

        case .rotationSequence(let initialAttitude, let steps):
            var attitude = initialAttitude
            var stepStart = 0.0
            for step in steps {
                let elapsed = min(max(time - stepStart, 0), step.duration)
                attitude = attitude * Quaternion(rotationVector: step.angularVelocity * elapsed)
                if time < stepStart + step.duration {
                    return SimulatedKinematics(attitude: attitude, angularVelocity: step.angularVelocity)
                }
                stepStart += step.duration
            }
            return SimulatedKinematics(attitude: attitude)

        case .demo:
            return Self.demoKinematics(at: time)
        case .drop(let drop): return drop.kinematics(at: time, gravity: gravity)
        case .shake(let shake): return shake.kinematics(at: time)
        case .taps(let taps): return taps.kinematics(at: time)
        case .tilt(let tilt): return tilt.kinematics(at: time)
        case .gait(let gait): return gait.kinematics(at: time)
        case .vibration(let vibration): return vibration.kinematics(at: time)
        case .fall(let fall): return fall.kinematics(at: time)
        case .sitDown(let sitDown): return sitDown.kinematics(at: time)
        case .machine(let machine): return machine.kinematics(at: time)
        }
    }

    // MARK: - Demo trajectory

    private static let demoYaw = Sinusoid(amplitude: 0.8, frequency: 0.07, phase: 0)
    private static let demoPitch = Sinusoid(amplitude: 0.35, frequency: 0.11, phase: 0.5)
    private static let demoRoll = Sinusoid(amplitude: 0.5, frequency: 0.13, phase: 1.0)
    private static let demoPosition = (
        east: Sinusoid(amplitude: 0.05, frequency: 0.3, phase: 0),
        north: Sinusoid(amplitude: 0.04, frequency: 0.2, phase: 0.7),
        up: Sinusoid(amplitude: 0.02, frequency: 0.5, phase: 0)
    )

    private static func demoKinematics(at time: Double) -> SimulatedKinematics {
        let yaw = demoYaw.evaluate(at: time), pitch = demoPitch.evaluate(at: time), roll = demoRoll.evaluate(at: time)
        let yawAttitude = Quaternion(axis: SIMD3(0, 0, 1), angle: yaw.value)
        let pitchAttitude = Quaternion(axis: SIMD3(0, 1, 0), angle: pitch.value)
        let rollAttitude = Quaternion(axis: SIMD3(1, 0, 0), angle: roll.value)
        // q = Rz(ψ) ⊗ Ry(θ) ⊗ Rx(φ); from q̇ = ½ q ⊗ ω:
        // ω_body = Rx(φ)ᵀ Ry(θ)ᵀ (0, 0, ψ̇) + Rx(φ)ᵀ (0, θ̇, 0) + (φ̇, 0, 0).
        let yawRate = SIMD3(0, 0, yaw.derivative)
        let pitchRate = SIMD3(0, pitch.derivative, 0)
        let rollRate = SIMD3(roll.derivative, 0, 0)
        let angularVelocity = rollAttitude.conjugate.rotate(pitchAttitude.conjugate.rotate(yawRate) + pitchRate)
            + rollRate
        let east = demoPosition.east.evaluate(at: time)
        let north = demoPosition.north.evaluate(at: time)
        let up = demoPosition.up.evaluate(at: time)
        return SimulatedKinematics(
            attitude: yawAttitude * pitchAttitude * rollAttitude,
            angularVelocity: angularVelocity,
            position: SIMD3(east.value, north.value, up.value),
            velocity: SIMD3(east.derivative, north.derivative, up.derivative),
            acceleration: SIMD3(east.secondDerivative, north.secondDerivative, up.secondDerivative))
    }
}

/// The exact motion state of the simulated body at one instant (internal to the simulator).
struct SimulatedKinematics {
    /// Body → ENU rotation.
    var attitude: Quaternion
    /// Body-frame angular velocity, rad/s.
    var angularVelocity = SIMD3<Double>(repeating: 0)
    /// ENU position relative to the centre of the motion, m.
    var position = SIMD3<Double>(repeating: 0)
    /// ENU velocity, m/s.
    var velocity = SIMD3<Double>(repeating: 0)
    /// ENU linear acceleration, m/s².
    var acceleration = SIMD3<Double>(repeating: 0)
}

/// `amplitude · sin(2π·frequency·t + phase)` with its exact derivatives.
struct Sinusoid {
    /// Peak value, in the unit of the quantity.
    var amplitude: Double
    /// Frequency, Hz.
    var frequency: Double
    /// Phase at t = 0, rad.
    var phase: Double

    private var angularFrequency: Double { 2 * .pi * frequency }

    /// The value and its first and second time derivatives at `time` seconds, from one sine and one
    /// cosine (the simulator evaluates six sinusoids per sample).
    func evaluate(at time: Double) -> (value: Double, derivative: Double, secondDerivative: Double) {
        let angle = angularFrequency * time + phase
        let sine = sin(angle), cosine = cos(angle)
        return (
            amplitude * sine, amplitude * angularFrequency * cosine,
            -amplitude * angularFrequency * angularFrequency * sine
        )
    }
}
