/// Tuning of an ``AttitudeFilter`` (``AttitudeFilter/Settings``). The defaults suit MEMS IMUs from 100 Hz to 1 kHz: each
/// is a physical quantity of the sensor, a time constant justified in docs/FUSION.md, or VQF's published
/// value (the magnetic disturbance thresholds, which the BROAD benchmark alone would set tighter).
public struct AttitudeFilterSettings: Sendable, Equatable, Hashable {
    /// Whether the magnetometer corrects the heading (reference frame "x magnetic north, z vertical")
    /// or is ignored (reference frame "x arbitrary, z vertical"). Default `false`.
    public var useMagnetometer: Bool
    /// Magnitude of gravity, m/s². Default 9.81.
    public var gravity: Double
    /// Time constant of the low-pass filter applied to the specific force in the gyroscope-integrated
    /// frame before it corrects the inclination, s: longer rejects linear acceleration better and
    /// trusts the gyroscope longer. Default 3 s.
    public var accelerometerTimeConstant: Double
    /// Time constant with which the magnetometer corrects the heading, s: longer trusts the gyroscope
    /// longer and lets less of the magnetometer's own errors into the heading. Default 15 s.
    public var magnetometerTimeConstant: Double
    /// Whether the gyroscope bias is estimated (at rest and in motion). Default `true`.
    public var estimatesGyroscopeBias: Bool
    /// Rest detection: largest deviation of the rate from its low-passed value, rad/s (the
    /// low-passed rate itself may reach ``maximumGyroscopeBias``), or six times the gyroscope's noise
    /// (``gyroscopeNoiseDensity``) if that is more. Default 2 °/s.
    public var restGyroscopeThreshold: Double
    /// Rest detection: largest deviation of the specific force from its low-passed value, m/s², or six
    /// times the accelerometer's noise (``accelerometerNoiseDensity``) if that is more. Default 0.5 m/s².
    public var restAccelerometerThreshold: Double
    /// Rest detection: how long the device must be still before it counts as resting, s. Default 1.5 s.
    public var restMinimumDuration: Double
    /// Time constant with which the bias estimate follows the inclination corrections in motion, s;
    /// 0 estimates the bias at rest only. Default 10 s (docs/FUSION.md: a phase margin of 73° around the
    /// accelerometer's low-pass, where 60° needs at least twice ``accelerometerTimeConstant``; the only
    /// value in 3–40 s that learns a tumbling device's bias and keeps a wrong start out of it). The bias
    /// is learnt in motion only while the device turns slower than ``lowPassCutoff``.
    public var motionBiasTimeConstant: Double
    /// Magnetic disturbance: largest relative deviation of the field's norm (low-passed over 0.05 s) from
    /// its reference, unless the magnetometer's noise needs more (3 × ``magnetometerNoise`` or the noise
    /// measured at rest). Default 0.1 (10 %, VQF's `magNormTh`: room for a calibration residual of a few
    /// µT, which tighter thresholds turn into a heading error by keeping only the readings it turns most;
    /// docs/FUSION.md).
    public var magneticNormThreshold: Double
    /// Magnetic disturbance: largest deviation of the field's dip angle (low-passed over 0.05 s) from its
    /// reference, rad, unless the magnetometer's noise needs more (3 × the noise ÷ the field, rad).
    /// Default 10° (VQF's `magDipTh`).
    public var magneticDipThreshold: Double
    /// Magnetic disturbance: how long a different field must stay steady in the reference frame, while
    /// the device turns by at least 0.5 rad about the vertical, to become the new reference, s.
    /// Default 20 s.
    public var magneticNewReferenceTime: Double
    /// Longest time step integrated in one update, s; a longer `deltaTime` (a gap in the data) is
    /// clamped to it. Default 0.5 s.
    public var maximumDeltaTime: Double
    /// Largest magnitude of each gyroscope bias component the estimator may reach, rad/s. Default
    /// 0.05 rad/s (≈ 3 °/s).
    public var maximumGyroscopeBias: Double
    /// Time constant with which the gyroscope scale factors follow the inclination corrections while
    /// the device turns, and the heading corrections about the vertical, s; 0 leaves them at 1. Default
    /// 20 s (docs/FUSION.md: phase margins of 81° around the accelerometer's low-pass and, at the fastest
    /// turns, 53° around the heading's lag; the only value in 6–30 s that keeps an exact gyroscope's
    /// factors within 0.3 % and learns a 1–1.5 % error to 0.2 %).
    public var gyroscopeScaleTimeConstant: Double
    /// Largest relative error of each gyroscope scale factor the estimator may reach. Default 0.02 (2 %,
    /// the sensitivity tolerance of consumer MEMS gyroscopes).
    public var maximumGyroscopeScaleError: Double
    /// The gyroscope's white noise (angle random walk), rad/s/√Hz: the attitude uncertainty grows with it,
    /// and rest detection allows a reading six times its noise (at the reading's Nyquist bandwidth) when
    /// that exceeds ``restGyroscopeThreshold``. Default 0.01 °/s/√Hz (consumer MEMS gyroscopes:
    /// 0.004–0.015). `motionctl calibrate --steps noise` measures it.
    public var gyroscopeNoiseDensity: Double
    /// The accelerometer's white noise (velocity random walk), m/s²/√Hz: rest detection allows a reading
    /// six times its noise (at the reading's Nyquist bandwidth) when that exceeds
    /// ``restAccelerometerThreshold``. Default 0.0015 m/s²/√Hz (150 µg/√Hz; consumer MEMS: 70–400).
    /// `motionctl calibrate --steps noise` measures it.
    public var accelerometerNoiseDensity: Double
    /// The magnetometer's noise, µT rms per axis and reading: the disturbance thresholds are at least three
    /// times it. Only a prior: the filter measures the noise itself while the device rests (from 50
    /// readings on). Default 0.5 µT (consumer magnetometers at 100 Hz: 0.2–0.7 µT; BROAD's 0.7).
    public var magnetometerNoise: Double
    /// Attitude uncertainty: the residual gyroscope bias after estimation, rad/s. Default 0.01 °/s.
    public var gyroscopeBiasInstability: Double
    /// Attitude uncertainty: the residual relative gyroscope scale error after estimation. Default
    /// 0.001 (0.1 %).
    public var gyroscopeScaleUncertainty: Double
    /// Attitude uncertainty: the inclination error of the accelerometer's reference with the device
    /// still (calibration residuals, misalignment), rad. Default 0.3°.
    public var accelerometerInclinationError: Double
    /// Attitude uncertainty: the heading error of an undisturbed magnetometer reading (calibration
    /// residuals, a field that is not quite uniform), rad. Default 0.6°.
    public var magnetometerHeadingError: Double

    /// Creates settings; every parameter has the documented default.
    /// - Parameters:
    ///   - useMagnetometer: whether the magnetometer corrects the heading.
    ///   - gravity: magnitude of gravity, m/s².
    ///   - accelerometerTimeConstant: s.
    ///   - magnetometerTimeConstant: s.
    ///   - estimatesGyroscopeBias: whether the bias is estimated.
    ///   - restGyroscopeThreshold: rad/s.
    ///   - restAccelerometerThreshold: m/s².
    ///   - restMinimumDuration: s.
    ///   - motionBiasTimeConstant: s.
    ///   - magneticNormThreshold: relative.
    ///   - magneticDipThreshold: rad.
    ///   - magneticNewReferenceTime: s.
    ///   - maximumDeltaTime: s.
    ///   - maximumGyroscopeBias: rad/s.
    ///   - gyroscopeScaleTimeConstant: s.
    ///   - maximumGyroscopeScaleError: relative.
    ///   - gyroscopeNoiseDensity: rad/s/√Hz.
    ///   - accelerometerNoiseDensity: m/s²/√Hz.
    ///   - magnetometerNoise: µT rms.
    ///   - gyroscopeBiasInstability: rad/s.
    ///   - gyroscopeScaleUncertainty: relative.
    ///   - accelerometerInclinationError: rad.
    ///   - magnetometerHeadingError: rad.
    public init(
        useMagnetometer: Bool = false,
        gravity: Double = 9.81,
        accelerometerTimeConstant: Double = 3,
        magnetometerTimeConstant: Double = 15,
        estimatesGyroscopeBias: Bool = true,
        restGyroscopeThreshold: Double = 2 * .pi / 180,
        restAccelerometerThreshold: Double = 0.5,
        restMinimumDuration: Double = 1.5,
        motionBiasTimeConstant: Double = 10,
        magneticNormThreshold: Double = 0.1,
        magneticDipThreshold: Double = 10 * .pi / 180,
        magneticNewReferenceTime: Double = 20,
        maximumDeltaTime: Double = 0.5,
        maximumGyroscopeBias: Double = 0.05,
        gyroscopeScaleTimeConstant: Double = 20,
        maximumGyroscopeScaleError: Double = 0.02,
        gyroscopeNoiseDensity: Double = 0.01 * .pi / 180,
        accelerometerNoiseDensity: Double = 0.0015,
        magnetometerNoise: Double = 0.5,
        gyroscopeBiasInstability: Double = 0.01 * .pi / 180,
        gyroscopeScaleUncertainty: Double = 0.001,
        accelerometerInclinationError: Double = 0.3 * .pi / 180,
        magnetometerHeadingError: Double = 0.6 * .pi / 180
    ) {
        self.useMagnetometer = useMagnetometer
        self.gravity = gravity
        self.accelerometerTimeConstant = accelerometerTimeConstant
        self.magnetometerTimeConstant = magnetometerTimeConstant
        self.estimatesGyroscopeBias = estimatesGyroscopeBias
        self.restGyroscopeThreshold = restGyroscopeThreshold
        self.restAccelerometerThreshold = restAccelerometerThreshold
        self.restMinimumDuration = restMinimumDuration
        self.motionBiasTimeConstant = motionBiasTimeConstant
        self.magneticNormThreshold = magneticNormThreshold
        self.magneticDipThreshold = magneticDipThreshold
        self.magneticNewReferenceTime = magneticNewReferenceTime
        self.maximumDeltaTime = maximumDeltaTime
        self.maximumGyroscopeBias = maximumGyroscopeBias
        self.gyroscopeScaleTimeConstant = gyroscopeScaleTimeConstant
        self.maximumGyroscopeScaleError = maximumGyroscopeScaleError
        self.gyroscopeNoiseDensity = gyroscopeNoiseDensity
        self.accelerometerNoiseDensity = accelerometerNoiseDensity
        self.magnetometerNoise = magnetometerNoise
        self.gyroscopeBiasInstability = gyroscopeBiasInstability
        self.gyroscopeScaleUncertainty = gyroscopeScaleUncertainty
        self.accelerometerInclinationError = accelerometerInclinationError
        self.magnetometerHeadingError = magnetometerHeadingError
    }
}

extension AttitudeFilterSettings {
    /// The cut-off of the accelerometer's low-pass as a rotation rate, rad/s: √2 / ``accelerometerTimeConstant``
    /// (0.47 rad/s at 3 s). The gyroscope error estimators read the corrections through that low-pass, and
    /// turning faster than its cut-off the low-passed orientation no longer stands for the one the
    /// corrections come from (it passes less than 1/√2 of the turn). So the bias is learnt in motion only
    /// below it, and its square is the floor of the scale estimators' normalised steps.
    public var lowPassCutoff: Double { 2.0.squareRoot() / accelerometerTimeConstant }

    /// How many standard deviations of one reading's noise a rest threshold is at least: 6. The deviation is
    /// a vector of three axes' noise, whose squared length exceeds 36 σ² with a probability of 7·10⁻⁸, so
    /// 1.5 s of still readings at 6.66 kHz are broken by noise alone once in about 1,400 rests.
    public static let restNoiseMultiple = 6.0

    /// The rest detection thresholds for readings `deltaTime` s apart: ``restGyroscopeThreshold`` (rad/s)
    /// and ``restAccelerometerThreshold`` (m/s²), or ``restNoiseMultiple`` times one reading's noise if
    /// that is more: the white-noise density times the square root of the reading's Nyquist bandwidth,
    /// 1/(2Δt). So a noisy sensor or a fast rate still finds rest, and the thresholds need no retuning from
    /// one chip or rate to another.
    public func restThresholds(deltaTime: Double) -> (gyroscope: Double, accelerometer: Double) {
        let bandwidth = (1 / (2 * deltaTime)).squareRoot()
        return (
            max(restGyroscopeThreshold, Self.restNoiseMultiple * gyroscopeNoiseDensity * bandwidth),
            max(restAccelerometerThreshold, Self.restNoiseMultiple * accelerometerNoiseDensity * bandwidth)
        )
    }

    /// `bias` with each component kept within ``maximumGyroscopeBias`` of zero, rad/s.
    func limitedBias(_ bias: SIMD3<Double>) -> SIMD3<Double> {
        let limit = maximumGyroscopeBias
        return SIMD3(min(max(bias.x, -limit), limit), min(max(bias.y, -limit), limit), min(max(bias.z, -limit), limit))
    }
}
