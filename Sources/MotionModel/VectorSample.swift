/// One three-axis sensor reading as the contract carries it, in Apple's units and signs: acceleration (g),
/// rotation rate (rad/s) or magnetic field (µT).
public struct VectorSample: Sendable, Equatable {
    /// When the value was measured, seconds since boot, s.
    public var timestamp: Double
    /// The reading along the device's x, y and z axes, in the sensor's unit (g, rad/s or µT).
    public var value: SIMD3<Double>

    /// Creates a sample.
    /// - Parameters:
    ///   - timestamp: seconds since boot, s.
    ///   - value: the reading in the sensor's unit (g, rad/s or µT).
    public init(timestamp: Double, value: SIMD3<Double>) {
        self.timestamp = timestamp
        self.value = value
    }
}
