#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The attitude filter's estimate of its own errors: the standard deviation (1 σ) of the heading error
/// and of the inclination error, propagated like a Kalman filter's variance through the same steps the
/// filter takes, from physical settings of the sensors (``AttitudeFilter/Settings``).
///
/// - **Between corrections** the gyroscope's errors accumulate: its white noise as a random walk
///   (noise density² · Δt), its residual scale error in proportion to the rotation rate (a random walk
///   with a correlation time of ``scaleCorrelationTime``, since turns go both ways), and its residual bias
///   as a linear growth (bias · Δt: the same sign for as long as it lasts).
/// - **A correction** with gain `k` (the fraction of the measured error the filter takes) blends the
///   uncertainty towards the measurement's own error: `σ² ← (1 − k)·σ² + k·σ_m²`. The measurement errors
///   of an IMU (calibration residuals, a slowly varying field, a mean linear acceleration) are correlated
///   over the filter's time constants, not white, so the estimate converges to the measurement's error
///   rather than below it.
/// - The **inclination** is measured by the low-passed specific force: its error is the accelerometer's
///   own (``AttitudeFilter/Settings/accelerometerInclinationError``) plus the mean linear acceleration
///   over the filter's time constant, seen as the low-passed deviation of the specific force's norm from
///   gravity.
/// - The **heading** is measured by the magnetometer in the tilt-corrected frame: its error is the
///   magnetometer's own (``AttitudeFilter/Settings/magnetometerHeadingError``) plus the inclination error
///   about the horizontal field's direction (1/√2 of the tilt error, which has two horizontal components)
///   times the tangent of the field's dip: such a tilt error turns part of the steep field's vertical
///   component into a horizontal one across north. While the field is rejected as disturbed, or without a magnetometer, the heading
///   uncertainty only grows.
///
/// Pure value; angles in radians, times in seconds.
struct AttitudeUncertainty: Sendable {
    /// Correlation time of the gyroscope's scale-error contribution, s.
    static let scaleCorrelationTime = 1.0

    /// Gyroscope white noise, rad/s/√Hz.
    let noiseDensity: Double
    /// Residual gyroscope bias after estimation, rad/s.
    let biasInstability: Double
    /// Residual relative gyroscope scale error.
    let scaleError: Double
    /// Inclination error of the accelerometer's reference at rest, rad.
    let accelerometerError: Double
    /// Heading error of an undisturbed magnetometer reading, rad.
    let magnetometerError: Double

    /// Heading: the random-walk and measurement part of the variance, rad², and the bias's linear part, rad.
    private var headingVariance: Double
    private var headingDrift = 0.0
    /// Inclination: the same two parts.
    private var inclinationVariance: Double
    private var inclinationDrift = 0.0

    /// Starts with the uncertainty of an attitude just set from one accelerometer reading of norm
    /// `firstReading` (m/s²): its inclination can be off by the angle of a linear acceleration as large as
    /// the norm's deviation from gravity (asin(|‖f‖ − g| / g)), plus the accelerometer's own error, until the
    /// low-passed corrections have averaged it out. (A push exactly sideways hides more, √(‖f‖² − g²), but
    /// that bound turns the 1–2 % norm error of an ordinary accelerometer at rest into 10–15°.) The heading is unknown (π) until
    /// ``correctHeading(gain:dipTangent:)`` with gain 1, or with `headingKnown` (an arbitrary heading, fixed by the first
    /// sample) exact.
    init(settings: AttitudeFilter.Settings, firstReading: Double, headingKnown: Bool) {
        noiseDensity = settings.gyroscopeNoiseDensity
        biasInstability = settings.gyroscopeBiasInstability
        scaleError = settings.gyroscopeScaleUncertainty
        accelerometerError = settings.accelerometerInclinationError
        magnetometerError = settings.magnetometerHeadingError
        let g = settings.gravity
        let first = asin(min(abs(firstReading - g) / g, 1)) + accelerometerError
        inclinationVariance = first * first
        headingVariance = headingKnown ? 0 : .pi * .pi
    }

    /// Heading error, 1 σ, rad (at most π).
    var heading: Double { min(headingVariance.squareRoot() + headingDrift, .pi) }
    /// Inclination error, 1 σ, rad (at most π/2).
    var inclination: Double { min(inclinationVariance.squareRoot() + inclinationDrift, .pi / 2) }

    /// The gyroscope's errors accumulated over `deltaTime` while turning at `rate` (rad/s, magnitude).
    mutating func propagate(rate: Double, deltaTime: Double) {
        let scaleRate = scaleError * rate
        let growth = (noiseDensity * noiseDensity + scaleRate * scaleRate * Self.scaleCorrelationTime) * deltaTime
        headingVariance = min(headingVariance + growth, .pi * .pi)
        inclinationVariance += growth
        headingDrift += biasInstability * deltaTime
        inclinationDrift += biasInstability * deltaTime
    }

    /// An inclination correction taking the fraction `gain` of the measured error.
    /// - Parameters:
    ///   - gain: the fraction, 0…1.
    ///   - lowPassedForce: the norm of the low-passed specific force that corrected it, m/s²: its deviation
    ///     from `gravity` shows the mean linear acceleration the low-pass let through (as an angle, rad).
    ///   - gravity: m/s².
    mutating func correctInclination(gain: Double, lowPassedForce: Double, gravity: Double) {
        let error = accelerometerError + abs(lowPassedForce - gravity) / gravity
        let current = inclination
        inclinationVariance = (1 - gain) * current * current + gain * error * error
        inclinationDrift = 0
    }

    /// A heading correction taking the fraction `gain` of the measured error, from a field whose dip (angle
    /// below the horizontal) has the tangent `dipTangent`; gain 1 when the heading was just set from one
    /// reading.
    mutating func correctHeading(gain: Double, dipTangent: Double) {
        let tilt = inclination * dipTangent * 0.5.squareRoot()
        let measurement = magnetometerError * magnetometerError + tilt * tilt
        let current = heading
        headingVariance = (1 - gain) * current * current + gain * measurement
        headingDrift = 0
    }
}
