/// One accelerometer sample: the acceleration of the device along its three axes.
open class CMAccelerometerData: CMLogItem {
    private let storedAcceleration: CMAcceleration

    /// The acceleration measured by the accelerometer, g (1 g = 9.80665 m/s²). At rest lying face up it is
    /// about (0, 0, -1) g: gravity plus the user's acceleration, with Apple's sign convention (the negated
    /// specific force).
    open var acceleration: CMAcceleration { storedAcceleration }

    /// Creates a sample with zero acceleration at timestamp 0 s.
    public override init() {
        storedAcceleration = CMAcceleration()
        super.init()
    }

    /// Creates a sample.
    /// - Parameters:
    ///   - acceleration: acceleration, g.
    ///   - timestamp: seconds since boot.
    init(acceleration: CMAcceleration, timestamp: TimeInterval) {
        storedAcceleration = acceleration
        super.init(timestamp: timestamp)
    }

    /// Archives the sample (`timestamp`, `acceleration.x`, `.y`, `.z`).
    open override func encode(with coder: NSCoder) {
        super.encode(with: coder)
        coder.encodeVector(x: storedAcceleration.x, y: storedAcceleration.y, z: storedAcceleration.z, forKey: "acceleration")
    }

    /// Reads an archived sample; nil when a value is missing.
    public required init?(coder: NSCoder) {
        guard let value = coder.decodeVector(forKey: "acceleration") else { return nil }
        storedAcceleration = CMAcceleration(x: value.x, y: value.y, z: value.z)
        super.init(coder: coder)
    }

    /// `x … y … z … @ timestamp`, for logs.
    open override var description: String {
        "x \(acceleration.x) y \(acceleration.y) z \(acceleration.z) @ \(timestamp)"
    }
}
