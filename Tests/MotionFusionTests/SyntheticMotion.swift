import Foundation
import MotionFusion
import MotionMath
import MotionTestSupport

/// Closed-form truth and the IMU readings it implies, for testing the filter against independent physics.
///
/// The device turns at a constant body rate, so its attitude (device → reference, NWU) is
/// `q(t) = q0 ⊗ exp(ω·t)`. The readings are: gyroscope `scale ⊙ ω + bias (+ noise)`; specific force
/// `Rᵀ(a_linear + (0, 0, g))` (the sensor sits at the rotation centre, so no centripetal term);
/// magnetometer `Rᵀ·B` with `B = (19.5, 0, −44.5)` µT (north-horizontal and downward components).
struct SyntheticMotion {
    static let gravity = 9.81
    static let magneticField = SIMD3<Double>(19.5, 0, -44.5)

    var initialAttitude: Quaternion
    var bodyRate: SIMD3<Double> = .zero
    var gyroscopeBias: SIMD3<Double> = .zero
    /// The gyroscope's sensitivity relative to its datasheet value, per axis (1: exact).
    var gyroscopeScale = SIMD3<Double>(repeating: 1)
    /// Linear acceleration of the device in the reference frame, m/s², as a function of time.
    var linearAcceleration: @Sendable (Double) -> SIMD3<Double> = { _ in .zero }
    /// A field added to the earth's (reference frame, µT) as a function of time: a magnetic disturbance.
    var magneticDisturbance: @Sendable (Double) -> SIMD3<Double> = { _ in .zero }
    /// A field added to the magnetometer's readings in the sensor's frame (µT): a hard-iron residual, which
    /// turns with the device.
    var magnetometerOffset = SIMD3<Double>.zero
    var gyroscopeNoise = 0.0
    var accelerometerNoise = 0.0
    var magnetometerNoise = 0.0

    func attitude(at time: Double) -> Quaternion {
        initialAttitude * Quaternion(rotationVector: bodyRate * time)
    }

    struct Reading {
        var gyroscope: SIMD3<Double>
        var accelerometer: SIMD3<Double>
        var magnetometer: SIMD3<Double>
    }

    func reading(at time: Double, using generator: inout SeededGenerator) -> Reading {
        let toDevice = attitude(at: time).conjugate
        let specificForce = linearAcceleration(time) + SIMD3(0, 0, Self.gravity)
        return Reading(
            gyroscope: bodyRate * gyroscopeScale + gyroscopeBias + generator.gaussianVector(standardDeviation: gyroscopeNoise),
            accelerometer: toDevice.rotate(specificForce)
                + generator.gaussianVector(standardDeviation: accelerometerNoise),
            magnetometer: toDevice.rotate(Self.magneticField + magneticDisturbance(time)) + magnetometerOffset
                + generator.gaussianVector(standardDeviation: magnetometerNoise)
        )
    }

    /// Runs `filter` over `duration` seconds at `rate` Hz starting at `startTime`, calling `check` after
    /// every update with the time and the true attitude. The first update has `deltaTime` 0 when
    /// `startTime` is 0 (a fresh filter), else one period.
    func run(
        _ filter: inout AttitudeFilter,
        from startTime: Double = 0,
        duration: Double,
        rate: Double = 100,
        seed: UInt64 = 1,
        useMagnetometerReadings: Bool = true,
        check: (Double, Quaternion, AttitudeFilter) -> Void = { _, _, _ in }
    ) {
        var generator = SeededGenerator(seed: seed)
        let period = 1 / rate
        let steps = Int((duration * rate).rounded())
        for step in 0...steps {
            let time = startTime + Double(step) * period
            let reading = reading(at: time, using: &generator)
            filter.update(
                gyroscope: reading.gyroscope,
                accelerometer: reading.accelerometer,
                magnetometer: useMagnetometerReadings ? reading.magnetometer : nil,
                deltaTime: step == 0 && startTime == 0 ? 0 : period
            )
            check(time, attitude(at: time), filter)
        }
    }
}

/// Angle between the estimated and true "up" directions seen in the device frame, degrees.
func inclinationError(_ estimate: Quaternion, _ truth: Quaternion) -> Double {
    let estimatedUp = estimate.conjugate.rotate(SIMD3(0, 0, 1))
    let trueUp = truth.conjugate.rotate(SIMD3(0, 0, 1))
    return degrees(atan2Vectors(estimatedUp, trueUp))
}

/// Heading (rotation about the reference vertical) of the estimate relative to the truth, degrees in
/// (−180, 180]: the twist about z of `estimate ⊗ truth⁻¹`.
func headingError(_ estimate: Quaternion, _ truth: Quaternion) -> Double {
    let difference = estimate * truth.conjugate
    var angle = 2 * atan2(difference.z, difference.w)
    if angle > Double.pi { angle -= 2 * Double.pi }
    if angle <= -Double.pi { angle += 2 * Double.pi }
    return degrees(angle)
}

func degrees(_ radians: Double) -> Double {
    radians * 180 / Double.pi
}

func radians(_ degrees: Double) -> Double {
    degrees * Double.pi / 180
}

/// Unsigned angle between two vectors, rad.
func atan2Vectors(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
    atan2(a.cross(b).length, a.dot(b))
}
