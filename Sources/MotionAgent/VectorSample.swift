import CoreMotion

/// One three-axis sensor reading: acceleration (g), rotation rate (rad/s) or magnetic field (µT).
public struct VectorSample: DownsampledValue, Equatable {
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

    /// The acceleration (g) of an accelerometer sample.
    public init(_ data: CMAccelerometerData) {
        let acceleration = data.acceleration
        self.init(timestamp: data.timestamp, value: SIMD3(acceleration.x, acceleration.y, acceleration.z))
    }

    /// The rotation rate (rad/s) of a gyroscope sample.
    public init(_ data: CMGyroData) {
        let rate = data.rotationRate
        self.init(timestamp: data.timestamp, value: SIMD3(rate.x, rate.y, rate.z))
    }

    /// The magnetic field (µT) of a magnetometer sample.
    public init(_ data: CMMagnetometerData) {
        let field = data.magneticField
        self.init(timestamp: data.timestamp, value: SIMD3(field.x, field.y, field.z))
    }

    /// The component-wise mean of the values at the mean of the timestamps.
    /// - Parameter samples: at least one sample.
    public static func mean(of samples: [VectorSample]) -> VectorSample {
        let sum = samples.reduce(SIMD3<Double>.zero) { $0 + $1.value }
        return VectorSample(timestamp: meanTimestamp(of: samples), value: sum / Double(samples.count))
    }

    /// The Euclidean distance between the two readings, in the sensor's unit.
    public func distance(to other: VectorSample) -> Double {
        let difference = value - other.value
        return (difference * difference).sum().squareRoot()
    }
}
