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

/// A gyroscope sample kept for later: the sample and the wall-clock time it was taken.
open class CMRecordedRotationRateData: CMRotationRateData {
    private let storedStartDate: Date

    /// The wall-clock time the sample was taken.
    open var startDate: Date { storedStartDate }

    /// Creates a sample with zero rotation at the reference date.
    public override init() {
        storedStartDate = Date(timeIntervalSinceReferenceDate: 0)
        super.init()
    }

    /// Creates a recorded sample.
    /// - Parameters:
    ///   - rotationRate: rad/s.
    ///   - timestamp: seconds since boot.
    ///   - startDate: the wall-clock time of the sample.
    public init(linuxRotationRate rotationRate: CMRotationRate, timestamp: TimeInterval, startDate: Date) {
        storedStartDate = startDate
        super.init(linuxRotationRate: rotationRate, timestamp: timestamp)
    }

    /// Archives the sample (the rotation-rate data's values and `startDate`).
    open override func encode(with coder: NSCoder) {
        super.encode(with: coder)
        coder.encode(date: storedStartDate, forKey: "startDate")
    }

    /// Reads an archived sample; nil when a value is missing.
    public required init?(coder: NSCoder) {
        guard let startDate = coder.decodeDate(forKey: "startDate") else { return nil }
        storedStartDate = startDate
        super.init(coder: coder)
    }
}
