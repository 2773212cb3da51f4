/// One magnetometer sample: the raw magnetic field along the device's three axes.
open class CMMagnetometerData: CMLogItem {
    private let storedMagneticField: CMMagneticField

    /// The magnetic field measured by the magnetometer, µT: the Earth's field plus the device's own bias
    /// and any nearby disturbance.
    open var magneticField: CMMagneticField { storedMagneticField }

    /// Creates a sample with a zero field at timestamp 0 s.
    public override init() {
        storedMagneticField = CMMagneticField()
        super.init()
    }

    /// Creates a sample.
    /// - Parameters:
    ///   - magneticField: field, µT.
    ///   - timestamp: seconds since boot.
    init(magneticField: CMMagneticField, timestamp: TimeInterval) {
        storedMagneticField = magneticField
        super.init(timestamp: timestamp)
    }

    /// `x … y … z … @ timestamp`, for logs.
    open override var description: String {
        "x \(magneticField.x) y \(magneticField.y) z \(magneticField.z) @ \(timestamp)"
    }
}
