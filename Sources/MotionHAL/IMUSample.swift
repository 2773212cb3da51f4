/// One reading of an inertial measurement unit, in SI units and the board's axes.
///
/// Axes are the board's right-handed frame after the mount matrix has been applied. A sensor that the
/// device lacks, or that did not produce a value in this reading, is `nil`.
public struct IMUSample: Sendable, Equatable {
    /// Time of the measurement, nanoseconds of `CLOCK_MONOTONIC` (see ``MonotonicClock``).
    public var timestamp: UInt64
    /// Specific force in m/s²: a device at rest reads +9.81 m/s² on the axis that points up.
    public var acceleration: SIMD3<Double>?
    /// Angular velocity in rad/s, right-handed about each axis.
    public var rotationRate: SIMD3<Double>?
    /// Magnetic flux density in µT.
    public var magneticField: SIMD3<Double>?

    /// Creates a sample.
    /// - Parameters:
    ///   - timestamp: nanoseconds of `CLOCK_MONOTONIC` at the measurement.
    ///   - acceleration: specific force, m/s².
    ///   - rotationRate: angular velocity, rad/s.
    ///   - magneticField: magnetic flux density, µT.
    public init(
        timestamp: UInt64,
        acceleration: SIMD3<Double>? = nil,
        rotationRate: SIMD3<Double>? = nil,
        magneticField: SIMD3<Double>? = nil
    ) {
        self.timestamp = timestamp
        self.acceleration = acceleration
        self.rotationRate = rotationRate
        self.magneticField = magneticField
    }
}
