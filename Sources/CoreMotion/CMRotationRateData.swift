/// One gyroscope sample as a log item of its own (Apple's `CMRotationRateData`, the type SensorKit and
/// recorded data use): the rotation rate of the device.
open class CMRotationRateData: CMLogItem {
    private let storedRotationRate: CMRotationRate

    /// The rotation rate around the device's axes, rad/s (right-handed: positive is counter-clockwise
    /// looking down the axis).
    open var rotationRate: CMRotationRate { storedRotationRate }

    /// Creates a sample with zero rotation at timestamp 0 s.
    public override init() {
        storedRotationRate = CMRotationRate()
        super.init()
    }

    /// Creates a sample.
    /// - Parameters:
    ///   - rotationRate: rad/s.
    ///   - timestamp: seconds since boot.
    public init(linuxRotationRate rotationRate: CMRotationRate, timestamp: TimeInterval) {
        storedRotationRate = rotationRate
        super.init(timestamp: timestamp)
    }

    /// The sample of a gyroscope reading.
    public convenience init(linuxGyroData gyroData: CMGyroData) {
        self.init(linuxRotationRate: gyroData.rotationRate, timestamp: gyroData.timestamp)
    }

    /// Archives the sample (`timestamp`, `rotationRate.x`, `.y`, `.z`).
    open override func encode(with coder: NSCoder) {
        super.encode(with: coder)
        coder.encodeVector(x: storedRotationRate.x, y: storedRotationRate.y, z: storedRotationRate.z, forKey: "rotationRate")
    }

    /// Reads an archived sample; nil when a value is missing.
    public required init?(coder: NSCoder) {
        guard let value = coder.decodeVector(forKey: "rotationRate") else { return nil }
        storedRotationRate = CMRotationRate(x: value.x, y: value.y, z: value.z)
        super.init(coder: coder)
    }
}
