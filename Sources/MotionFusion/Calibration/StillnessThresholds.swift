/// How much the readings may vary while a device counts as still, for the rest periods of a calibration.
///
/// The defaults suit consumer MEMS IMUs (noise densities around 0.01 °/s/√Hz and 100–200 µg/√Hz, i.e. about
/// 0.002 rad/s and 0.02 m/s² RMS per axis at 100 Hz) held by a hand or lying on a table: they allow about
/// five times that noise, and reject a hand that is still moving the board (a turn of a few degrees per
/// second or a push of a few hundredths of g).
public struct StillnessThresholds: Sendable, Equatable {
    /// Largest spread of the angular velocity about its mean (``VectorStatistics/spread``), rad/s.
    public var rotationRateSpread: Double
    /// Largest spread of the specific force about its mean, m/s².
    public var specificForceSpread: Double

    /// Creates thresholds.
    /// - Parameters:
    ///   - rotationRateSpread: rad/s; default 0.02 (≈ 1.1 °/s).
    ///   - specificForceSpread: m/s²; default 0.15 (≈ 0.015 g).
    public init(rotationRateSpread: Double = 0.02, specificForceSpread: Double = 0.15) {
        self.rotationRateSpread = rotationRateSpread
        self.specificForceSpread = specificForceSpread
    }

    /// Whether readings with these statistics are still.
    /// - Parameters:
    ///   - rotationRate: statistics of the angular velocity, rad/s (nil: no gyroscope, not judged).
    ///   - specificForce: statistics of the specific force, m/s².
    public func areStill(rotationRate: VectorStatistics?, specificForce: VectorStatistics) -> Bool {
        specificForce.spread <= specificForceSpread && (rotationRate?.spread ?? 0) <= rotationRateSpread
    }
}
