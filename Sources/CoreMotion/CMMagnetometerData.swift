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

    /// Archives the sample (`timestamp`, `magneticField.x`, `.y`, `.z`).
    open override func encode(with coder: NSCoder) {
        super.encode(with: coder)
        coder.encodeVector(x: storedMagneticField.x, y: storedMagneticField.y, z: storedMagneticField.z, forKey: "magneticField")
    }

    /// Reads an archived sample; nil when a value is missing.
    public required init?(coder: NSCoder) {
        guard let value = coder.decodeVector(forKey: "magneticField") else { return nil }
        storedMagneticField = CMMagneticField(x: value.x, y: value.y, z: value.z)
        super.init(coder: coder)
    }

    /// `x … y … z … @ timestamp`, for logs.
    open override var description: String {
        "x \(magneticField.x) y \(magneticField.y) z \(magneticField.z) @ \(timestamp)"
    }
}
