/// The gyroscope's bias (its reading at rest), estimated as the mean angular velocity over a period in
/// which the device lay still.
///
/// The period is checked: both the angular velocity and the specific force must stay within
/// ``StillnessThresholds`` of their means, so a hand that moved the board is reported instead of being
/// averaged into the bias. (A steady turn about the vertical would pass the check; nobody turns a board
/// steadily by hand, so this is not guarded against.)
public struct GyroscopeBiasCalibration: Sendable, Equatable {
    /// The bias, rad/s: subtract it from every reading.
    public let bias: SIMD3<Double>
    /// Spread of the angular velocity during the period, rad/s (noise).
    public let rotationRateSpread: Double
    /// Spread of the specific force during the period, m/s².
    public let specificForceSpread: Double
    /// Samples averaged.
    public let sampleCount: Int

    /// The fewest samples a bias is estimated from: 50 (a quarter second at 200 Hz).
    public static let minimumSampleCount = 50

    /// Estimates the bias from simultaneous readings taken while the device was still.
    /// - Parameters:
    ///   - rotationRates: angular velocity, rad/s.
    ///   - specificForces: specific force, m/s², one per rate reading.
    ///   - thresholds: what counts as still.
    /// - Throws: ``CalibrationError/tooFewSamples(_:)`` below ``minimumSampleCount`` or for arrays of
    ///   different lengths, ``CalibrationError/notStill(_:)`` giving the spread that was too large.
    public init(
        rotationRates: [SIMD3<Double>], specificForces: [SIMD3<Double>],
        thresholds: StillnessThresholds = StillnessThresholds()
    ) throws(CalibrationError) {
        guard rotationRates.count == specificForces.count else {
            throw .tooFewSamples(
                "\(rotationRates.count) rotation rates but \(specificForces.count) specific forces; give one of each per sample")
        }
        guard rotationRates.count >= Self.minimumSampleCount else {
            throw .tooFewSamples(
                "\(rotationRates.count) samples for the gyroscope bias, need at least \(Self.minimumSampleCount)")
        }
        let rate = VectorStatistics(rotationRates)
        let force = VectorStatistics(specificForces)
        guard rate.spread <= thresholds.rotationRateSpread else {
            throw .notStill(
                "the rotation rate varied by \(rate.spread.threeSignificantDigits) rad/s RMS (at most \(thresholds.rotationRateSpread.threeSignificantDigits) rad/s allowed); keep the board still")
        }
        guard force.spread <= thresholds.specificForceSpread else {
            throw .notStill(
                "the specific force varied by \(force.spread.threeSignificantDigits) m/s² RMS (at most \(thresholds.specificForceSpread.threeSignificantDigits) m/s² allowed); keep the board still")
        }
        bias = rate.mean
        rotationRateSpread = rate.spread
        specificForceSpread = force.spread
        sampleCount = rotationRates.count
    }
}
