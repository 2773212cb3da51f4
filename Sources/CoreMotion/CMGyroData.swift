/// One gyroscope sample: the raw rotation rate of the device about its three axes.
open class CMGyroData: CMLogItem {
    private let storedRotationRate: CMRotationRate

    /// The rotation rate measured by the gyroscope, rad/s, right-handed about each device axis. This is the
    /// raw reading: it includes the gyroscope's bias (``CMDeviceMotion/rotationRate`` has it removed).
    open var rotationRate: CMRotationRate { storedRotationRate }

    /// Creates a sample with zero rotation rate at timestamp 0 s.
    public override init() {
        storedRotationRate = CMRotationRate()
        super.init()
    }

    /// Creates a sample.
    /// - Parameters:
    ///   - rotationRate: rotation rate, rad/s.
    ///   - timestamp: seconds since boot.
    init(rotationRate: CMRotationRate, timestamp: TimeInterval) {
        storedRotationRate = rotationRate
        super.init(timestamp: timestamp)
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

    /// `x … y … z … @ timestamp`, for logs.
    open override var description: String {
        "x \(rotationRate.x) y \(rotationRate.y) z \(rotationRate.z) @ \(timestamp)"
    }
}
