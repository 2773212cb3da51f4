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

    /// `x … y … z … @ timestamp`, for logs.
    open override var description: String {
        "x \(acceleration.x) y \(acceleration.y) z \(acceleration.z) @ \(timestamp)"
    }
}
