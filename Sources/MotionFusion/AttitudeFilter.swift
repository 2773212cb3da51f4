#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MotionMath

/// An attitude filter with gyroscope bias estimation, 6-axis (gyroscope and accelerometer) or 9-axis (plus
/// magnetometer), built like VQF (Laidig & Seel, Information Fusion 2023):
///
/// - The bias-corrected gyroscope is integrated exactly into `gyroscopeAttitude` (device → an almost
///   inertial frame that drifts only with the residual bias).
/// - The specific force is rotated into that frame and low-passed there (second-order Butterworth,
///   ``Settings/accelerometerTimeConstant``): linear accelerations average out, gravity does not. The
///   filtered vector, taken into the earth frame, fully corrects an inclination-only rotation
///   `inclinationCorrection` every sample — so fast translations and vibration barely tilt the estimate.
/// - The magnetometer, taken into the tilt-corrected frame, corrects a rotation about the vertical
///   (`headingRotation`) with ``Settings/magnetometerTimeConstant``, only while its norm and dip (low-passed
///   over 0.05 s) agree with the undisturbed reference and have for 0.5 s (VQF's magnetic disturbance
///   rejection; a different field is adopted only once it proved steady in the reference frame while the
///   device turned).
/// - It estimates its own heading and inclination uncertainty (``headingUncertainty``,
///   ``inclinationUncertainty``) from the sensors' physical errors (``AttitudeUncertainty``).
/// - The bias is the mean gyroscope reading while the device rests (rest detection), and is learnt in
///   motion from the inclination corrections, which are the residual bias integrated into the attitude.
/// - The gyroscope's scale factors are estimated from the same corrections while the device turns (and
///   the scale of the axis along the vertical from the heading corrections, which the accelerometer cannot
///   see): a sensitivity error integrates into the attitude in proportion to the rotation about each axis,
///   so the corrections correlate with the rotation each axis contributed (seen through the same low-pass). MEMS
///   gyroscopes are off by up to a few per cent; on BROAD this estimate cuts the inclination error of the
///   fast-rotation trials by a third.
///
/// **Reference frame**: z up. With the magnetometer, x points to magnetic north and y west (north-west-up,
/// Apple's `xMagneticNorthZVertical`). Without it, x is arbitrary: the first sample fixes it so that the
/// yaw starts at zero (the device x axis projected on the horizontal plane, or the device z axis when x
/// points straight up or down), and it drifts only with the residual gyroscope bias about the vertical
/// (Apple's `xArbitraryZVertical`).
///
/// The filter is a value type with no I/O and no clock: the caller supplies the time step.
public struct AttitudeFilter: Sendable {
    /// The tuning in use.
    /// Tuning of an ``AttitudeFilter``: ``AttitudeFilterSettings``.
    public typealias Settings = AttitudeFilterSettings

    public let settings: Settings

    /// Rotation from the device frame to the reference frame: `v_reference = attitude ⊗ v_device ⊗ attitude*`.
    /// ``Quaternion/identity`` until ``isInitialized``.
    public private(set) var attitude: Quaternion = .identity
    /// Gravitational acceleration in the device frame, m/s², pointing down, of magnitude
    /// ``Settings/gravity`` (at rest face up: (0, 0, −9.81)). Zero until ``isInitialized``.
    public private(set) var gravity: SIMD3<Double> = .zero
    /// The device's own linear acceleration in the device frame, m/s²: the specific force plus
    /// ``gravity``, so zero at rest. Zero when the last update had no (finite) accelerometer reading or
    /// the filter is not initialised.
    public private(set) var userAcceleration: SIMD3<Double> = .zero
    /// Angular velocity in the device frame, rad/s: the last gyroscope reading minus ``gyroscopeBias``.
    public private(set) var rotationRate: SIMD3<Double> = .zero
    /// Estimated gyroscope bias (the reading at rest), rad/s, in the device frame.
    public internal(set) var gyroscopeBias: SIMD3<Double> = .zero
    /// Estimated gyroscope scale factors per device axis (dimensionless, 1 = the datasheet's sensitivity):
    /// ``rotationRate`` is the reading minus ``gyroscopeBias``, times these.
    public internal(set) var gyroscopeScale = SIMD3<Double>(repeating: 1)
    /// Whether the attitude has been set from a usable accelerometer reading. Updates before that only
    /// refresh ``rotationRate``.
    public private(set) var isInitialized = false
    /// Whether the heading is referenced to magnetic north (the magnetometer is in use and has provided
    /// a usable reading). Always `false` without ``Settings/useMagnetometer``.
    public private(set) var isHeadingReferenced = false
    /// Whether the accelerometer corrected the attitude in the last update (`false` when missing or not
    /// finite).
    public private(set) var accelerometerUsed = false
    /// Whether the magnetometer corrected (or initialised) the heading in the last update.
    public private(set) var magnetometerUsed = false
    /// Whether the rest detector finds the device still (the bias is then being estimated).
    public var isAtRest: Bool { restDetector.isAtRest }
    /// Whether the last magnetometer reading was rejected as magnetically disturbed.
    public var isMagneticallyDisturbed: Bool { disturbanceDetector.isDisturbed }
    /// The magnetometer's noise the disturbance thresholds allow for, µT rms per axis and reading: measured
    /// while the device rests (from 50 readings on), else ``Settings/magnetometerNoise``.
    public var magnetometerNoise: Double { magnetometerNoiseEstimator.standardDeviation }
    /// The filter's estimate of its heading error, 1 σ, rad: grows with the gyroscope's errors, shrinks
    /// towards the magnetometer's own error while undisturbed fields correct it (``AttitudeUncertainty``).
    /// With the magnetometer, π until the heading is referenced; without it, the drift of the arbitrary
    /// heading since initialisation. π before ``isInitialized``.
    public var headingUncertainty: Double { isInitialized ? uncertainty.heading : .pi }
    /// The filter's estimate of its inclination (tilt) error, 1 σ, rad. π/2 before ``isInitialized``.
    public var inclinationUncertainty: Double { isInitialized ? uncertainty.inclination : .pi / 2 }

    /// Device → almost inertial frame, from the integrated gyroscope.
    private var gyroscopeAttitude: Quaternion = .identity
    /// Almost inertial → tilt-corrected frame (a rotation about a horizontal axis).
    private var inclinationCorrection: Quaternion = .identity
    /// Rotation about the vertical from the tilt-corrected frame to the reference frame, advanced with each
    /// correction (no trigonometry per sample).
    private var headingRotation: Quaternion = .identity
    /// Per-step gains `1 − exp(−Δt/τ)` of the sample interval last seen (recomputed when it changes).
    private var gains = (deltaTime: 0.0, magnetometer: 0.0)
    private var accelerometerLowPass: ButterworthLowPass
    /// The bias and scale estimators in motion.
    private var errorEstimator: GyroscopeErrorEstimator
    /// Shortest time between two heading corrections, s: the magnetometer corrects at most 100 times a
    /// second (magnetometers seldom measure faster, and with a time constant of seconds more corrections
    /// would only cost time). Readings in between are skipped.
    private static let headingCorrectionInterval = 0.0099
    /// Time since the last heading correction, s.
    private var sinceHeadingCorrection = 0.0
    /// The time the heading has averaged the magnetometer over since it was set from one reading, s: until
    /// it reaches ``Settings/magnetometerTimeConstant`` each correction weighs by its share of it (a running
    /// mean), so the first seconds average the readings' noise away instead of starting from one reading
    /// and forgetting it at the slow rate.
    private var headingAveragedFor = 0.0
    private var restDetector: RestDetector
    private var disturbanceDetector: MagneticDisturbanceDetector
    private var magnetometerNoiseEstimator: MagnetometerNoiseEstimator
    private var uncertainty: AttitudeUncertainty

    /// Creates a filter that initialises itself from the first usable accelerometer reading.
    /// - Parameter settings: the tuning (defaults documented in ``Settings``).
    public init(settings: Settings = Settings()) {
        self.settings = settings
        accelerometerLowPass = ButterworthLowPass(timeConstant: settings.accelerometerTimeConstant)
        errorEstimator = GyroscopeErrorEstimator(timeConstant: settings.accelerometerTimeConstant)
        restDetector = RestDetector(settings: settings)
        disturbanceDetector = MagneticDisturbanceDetector(
            normThreshold: settings.magneticNormThreshold, dipThreshold: settings.magneticDipThreshold,
            newReferenceTime: settings.magneticNewReferenceTime, referenceTimeConstant: 20)
        magnetometerNoiseEstimator = MagnetometerNoiseEstimator(prior: settings.magnetometerNoise)
        uncertainty = AttitudeUncertainty(settings: settings, firstReading: settings.gravity, headingKnown: !settings.useMagnetometer)
    }

    /// Feeds one set of readings taken at the same instant.
    ///
    /// The very first accelerometer reading within 20 % of 1 g sets the attitude directly (with the magnetometer
    /// heading when it is in use and usable) instead of converging from identity. With the magnetometer in
    /// use, the first usable field reading after an initialisation without one sets the heading directly.
    /// A `deltaTime` that is zero, negative or not finite (or a non-finite gyroscope reading) integrates
    /// nothing; one longer than ``Settings/maximumDeltaTime`` is clamped to it.
    /// - Parameters:
    ///   - gyroscope: angular velocity, rad/s, device frame (right-handed about each axis).
    ///   - accelerometer: specific force, m/s², device frame (+9.81 up at rest), or `nil` if absent.
    ///   - magnetometer: magnetic flux density, µT, device frame, or `nil` if absent. Ignored unless
    ///     ``Settings/useMagnetometer``; a zero or non-finite reading is ignored.
    ///   - deltaTime: time since the previous update, s.
    public mutating func update(
        gyroscope: SIMD3<Double>,
        accelerometer: SIMD3<Double>?,
        magnetometer: SIMD3<Double>?,
        deltaTime: Double
    ) {
        let force = accelerometer.flatMap { $0.isFinite && $0.lengthSquared > 0 ? $0 : nil }
        let field = settings.useMagnetometer ? magnetometer.flatMap { $0.isFinite && $0.lengthSquared > 0 ? $0 : nil } : nil
        accelerometerUsed = false
        magnetometerUsed = false

        if !isInitialized {
            // Only a reading near 1 g shows "up" on its own; later ones are averaged, whatever their norm.
            if let force, abs(force.length - settings.gravity) <= 0.2 * settings.gravity {
                initialize(force: force, field: field)
            }
        } else if deltaTime > 0, deltaTime.isFinite, gyroscope.isFinite {
            let step = min(deltaTime, settings.maximumDeltaTime)
            if let force { estimateBias(gyroscope: gyroscope, force: force, deltaTime: step) }
            let rate = (gyroscope - gyroscopeBias) * gyroscopeScale
            integrate(rate, deltaTime: step)
            uncertainty.propagate(rate: rate.length, deltaTime: step)
            if let force { correctInclination(force: force, deltaTime: step) }
            let tiltCorrected = inclinationCorrection * gyroscopeAttitude
            sinceHeadingCorrection += step
            if let field, sinceHeadingCorrection >= Self.headingCorrectionInterval {
                correctHeading(field: field, tiltCorrected: tiltCorrected, deltaTime: sinceHeadingCorrection)
                sinceHeadingCorrection = 0
            }
            attitude = headingRotation * tiltCorrected  // unit: both factors are normalised
        }
        updateOutputs(gyroscope: gyroscope, accelerometer: accelerometer)
    }

    // MARK: - Steps

    private mutating func initialize(force: SIMD3<Double>, field: SIMD3<Double>?) {
        gyroscopeAttitude = Quaternion.attitude(up: force.normalized, northward: nil)
        inclinationCorrection = .identity
        accelerometerLowPass = ButterworthLowPass(timeConstant: settings.accelerometerTimeConstant)
        accelerometerLowPass.reset(to: gyroscopeAttitude.rotate(force))
        errorEstimator.reset(gyroscopeAttitude: gyroscopeAttitude)
        setHeadingOffset(0)
        uncertainty = AttitudeUncertainty(settings: settings, firstReading: force.length, headingKnown: !settings.useMagnetometer)
        isInitialized = true
        accelerometerUsed = true
        if let field { referenceHeading(field: field) }
        attitude = currentAttitude
    }

    /// Integrates the bias-corrected rate exactly over the step (constant rate).
    private mutating func integrate(_ rate: SIMD3<Double>, deltaTime: Double) {
        gyroscopeAttitude = (gyroscopeAttitude * .rotation(by: rate * deltaTime)).renormalized
    }

    /// Low-passes the specific force in the almost inertial frame and turns the inclination correction so
    /// that the filtered vector points straight up.
    private mutating func correctInclination(force: SIMD3<Double>, deltaTime: Double) {
        let filtered = accelerometerLowPass.update(gyroscopeAttitude.rotate(force), deltaTime: deltaTime)
        let up = inclinationCorrection.rotate(filtered)
        let length = up.length
        guard length > 0 else { return }
        let direction = up / length
        // The smallest rotation taking `direction` onto +z (about the horizontal axis direction × z).
        let w = ((direction.z + 1) / 2).squareRoot()
        let correction =
            w > 1e-6
            ? Quaternion(w: w, x: direction.y / (2 * w), y: -direction.x / (2 * w), z: 0)
            : Quaternion(w: 0, x: 1, y: 0, z: 0)
        inclinationCorrection = (correction * inclinationCorrection).renormalized
        accelerometerUsed = true
        // Not through `gain(for:)`: its cache is keyed by the heading's interval, not the sample's.
        uncertainty.correctInclination(
            gain: min(deltaTime / settings.accelerometerTimeConstant, 1), lowPassedForce: length, gravity: settings.gravity)
        let step = GyroscopeErrorEstimator.Step(
            correction: correction, deltaTime: deltaTime, rotationRate: rotationRate, gyroscopeAttitude: gyroscopeAttitude,
            inclinationCorrection: inclinationCorrection, isAtRest: restDetector.isAtRest)
        errorEstimator.collect(step, settings: settings, bias: &gyroscopeBias, scale: &gyroscopeScale)
    }

    /// At rest the mean rate is the bias (``RestDetector/restRate``).
    private mutating func estimateBias(gyroscope: SIMD3<Double>, force: SIMD3<Double>, deltaTime: Double) {
        guard settings.estimatesGyroscopeBias else { return }
        restDetector.update(gyroscope: gyroscope, accelerometer: force, deltaTime: deltaTime)
        guard restDetector.isAtRest else { return }
        gyroscopeBias = settings.limitedBias(restDetector.restRate)
    }

    /// Turns the heading rotation towards the magnetometer's heading while the field is undisturbed.
    private mutating func correctHeading(field: SIMD3<Double>, tiltCorrected: Quaternion, deltaTime: Double) {
        let tilted = tiltCorrected.rotate(field)
        let horizontal = (tilted.x * tilted.x + tilted.y * tilted.y).squareRoot()
        // The field in the reference frame (the heading rotation is about z).
        let (c, s) = (headingRotation.w, headingRotation.z)
        let cosine = c * c - s * s, sine = 2 * c * s
        let x = cosine * tilted.x - sine * tilted.y, y = sine * tilted.x + cosine * tilted.y
        let turned = tiltCorrected.rotate(rotationRate).z * deltaTime
        magnetometerNoiseEstimator.update(field, isAtRest: restDetector.isAtRest)
        guard disturbanceDetector.update(
            horizontal: horizontal, downward: -tilted.z, earth: SIMD3(x, y, tilted.z), turned: turned,
            trusted: isInclinationTrusted, noise: magnetometerNoise, deltaTime: deltaTime)
        else { return }
        guard horizontal > 1e-3 * tilted.length else { return }  // a vertical field shows no north
        guard isHeadingReferenced else {
            adoptHeading(of: tilted, horizontal: horizontal)
            return
        }
        // The field's angle from +x in the reference frame is the heading error.
        let error = -Double.angle(y: y, x: x)
        headingAveragedFor += deltaTime
        let magnetometerGain =
            headingAveragedFor < settings.magnetometerTimeConstant
            ? deltaTime / headingAveragedFor : gain(for: deltaTime).magnetometer
        // A rotation by `magnetometerGain · error` about z, to first order (far below a degree per sample).
        headingRotation = (Quaternion(w: 1, x: 0, y: 0, z: magnetometerGain * error / 2) * headingRotation).renormalized
        let headingStep = GyroscopeErrorEstimator.HeadingStep(
            angle: magnetometerGain * error, gain: magnetometerGain, deltaTime: deltaTime,
            vertical: tiltCorrected.conjugate.rotate(SIMD3(0, 0, 1)), rotationRate: rotationRate,
            isSettled: headingAveragedFor >= settings.magnetometerTimeConstant, isAtRest: restDetector.isAtRest)
        errorEstimator.collectHeading(headingStep, settings: settings, scale: &gyroscopeScale)
        uncertainty.correctHeading(gain: magnetometerGain, dipTangent: abs(tilted.z) / horizontal)
        magnetometerUsed = true
    }

    private mutating func referenceHeading(field: SIMD3<Double>) {
        let tilted = (inclinationCorrection * gyroscopeAttitude).rotate(field)
        let horizontal = (tilted.x * tilted.x + tilted.y * tilted.y).squareRoot()
        guard horizontal > 1e-3 * tilted.length else { return }
        _ = disturbanceDetector.update(
            horizontal: horizontal, downward: -tilted.z, earth: tilted, turned: 0, trusted: isInclinationTrusted,
            noise: magnetometerNoise, deltaTime: 0)
        adoptHeading(of: tilted, horizontal: horizontal)
    }

    /// Sets the heading straight from one field reading in the tilt-corrected frame (`tilted`, µT, with its
    /// horizontal component's length `horizontal`), and its uncertainty to that reading's.
    private mutating func adoptHeading(of tilted: SIMD3<Double>, horizontal: Double) {
        setHeadingOffset(-atan2(tilted.y, tilted.x))
        uncertainty.correctHeading(gain: 1, dipTangent: abs(tilted.z) / horizontal)
        isHeadingReferenced = true
        headingAveragedFor = Self.headingCorrectionInterval
        magnetometerUsed = true
    }

    /// Whether the inclination is known well enough (1 σ within a quarter of the dip threshold) for a field
    /// reading to found the magnetic reference.
    private var isInclinationTrusted: Bool { uncertainty.inclination < settings.magneticDipThreshold / 4 }

    private mutating func setHeadingOffset(_ angle: Double) {
        headingRotation = Quaternion(axis: SIMD3(0, 0, 1), angle: angle)
    }

    /// The per-step gains for `deltaTime`, recomputed only when the interval changes.
    private mutating func gain(for deltaTime: Double) -> (deltaTime: Double, magnetometer: Double) {
        if deltaTime != gains.deltaTime {
            gains = (deltaTime, 1 - exp(-deltaTime / settings.magnetometerTimeConstant))
        }
        return gains
    }

    // MARK: - Outputs

    private var currentAttitude: Quaternion {
        headingRotation * (inclinationCorrection * gyroscopeAttitude)
    }

    private mutating func updateOutputs(gyroscope: SIMD3<Double>, accelerometer: SIMD3<Double>?) {
        rotationRate = (gyroscope - gyroscopeBias) * gyroscopeScale
        guard isInitialized else { return }
        gravity = attitude.rotationMatrix.row2 * -settings.gravity
        if let accelerometer, accelerometer.isFinite {
            userAcceleration = accelerometer + gravity
        } else {
            userAcceleration = .zero
        }
    }
}
