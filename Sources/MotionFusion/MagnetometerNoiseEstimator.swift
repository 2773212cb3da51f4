import MotionMath

/// Measures the magnetometer's white noise while the device rests: two successive readings at rest differ
/// by noise alone (at the largest rate that still counts as rest, 0.05 rad/s, a 50 µT field turns by
/// 0.025 µT in 10 ms, a tenth of a good magnetometer's noise), so half the mean squared difference of
/// successive readings, per axis, is the variance of one reading. Differences, not the spread about the
/// rest's mean, so that a slow drift of the field or of the sensor's offset does not count as noise.
///
/// Until ``minimumCount`` differences have been seen the estimate is the prior (the sensor's datasheet
/// figure, ``AttitudeFilter/Settings/magnetometerNoise``).
struct MagnetometerNoiseEstimator: Sendable {
    /// The noise of one reading on one axis, µT rms: the measured figure once there is one, else the prior.
    private(set) var standardDeviation: Double
    /// How many differences have been seen this far; the measured figure replaces the prior from
    /// ``minimumCount`` on.
    private var count = 0
    /// The running mean of |Δm|²/6 over the differences seen, µT².
    private var meanVariance = 0.0
    /// The last reading of the current rest, µT; nil after motion.
    private var previous: SIMD3<Double>?

    /// Differences needed before the measured figure replaces the prior: 50, which leaves the figure within
    /// about ±6 % (1 σ, three axes a difference) of the true noise.
    static let minimumCount = 50
    /// The most differences the running mean weighs equally (older ones fade), so that a noise that changes
    /// with temperature or the sensor's mode is followed.
    static let longestAverage = 10_000

    /// Starts from the prior, µT rms per axis.
    init(prior: Double) {
        standardDeviation = prior
    }

    /// Feeds one field reading (µT) and whether the device rests. A reading equal to the previous one on
    /// every axis is skipped: it is a held reading (a magnetometer slower than the updates), not a new
    /// measurement.
    mutating func update(_ field: SIMD3<Double>, isAtRest: Bool) {
        guard isAtRest else {
            previous = nil
            return
        }
        defer { previous = field }
        guard let previous, field != previous else { return }
        count += 1
        meanVariance += ((field - previous).lengthSquared / 6 - meanVariance) / Double(min(count, Self.longestAverage))
        if count >= Self.minimumCount { standardDeviation = meanVariance.squareRoot() }
    }
}
