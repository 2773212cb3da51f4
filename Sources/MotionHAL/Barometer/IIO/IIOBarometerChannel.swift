/// One quantity of an IIO barometer as sysfs offers it (Documentation/ABI/testing/sysfs-bus-iio): the
/// processed `<prefix>_input`, else `(<prefix>_raw + <prefix>_offset) × <prefix>_scale`, in the kernel's
/// unit (kPa for `in_pressure`, m°C for `in_temp`), times ``unitFactor`` for MotionHAL's (Pa, °C).
struct IIOBarometerChannel: Sendable, Equatable {
    /// The attribute read at every poll, e.g. `in_pressure_input`.
    let attribute: String
    /// Kernel units per count (1 for a processed value).
    let scale: Double
    /// Counts added before scaling (0 for a processed value).
    let offset: Double
    /// MotionHAL units per kernel unit: 1000 Pa per kPa, 0.001 °C per m°C.
    let unitFactor: Double

    /// The channel of the first prefix the device has (`in_pressure`, then `in_pressure0`), `nil` for none.
    /// - Parameters:
    ///   - prefixes: attribute prefixes to try, in order.
    ///   - device: the device's directory.
    ///   - unitFactor: MotionHAL units per kernel unit.
    /// - Throws: ``IMUDeviceError/unavailable(_:)`` for a scale or offset that does not parse.
    static func find(_ prefixes: [String], in device: IIOSysfsDevice, unitFactor: Double)
        throws(IMUDeviceError) -> IIOBarometerChannel?
    {
        for prefix in prefixes {
            if device.has("\(prefix)_input") {
                return IIOBarometerChannel(attribute: "\(prefix)_input", scale: 1, offset: 0, unitFactor: unitFactor)
            }
            if device.has("\(prefix)_raw") {
                return IIOBarometerChannel(
                    attribute: "\(prefix)_raw", scale: try device.readNumberIfPresent("\(prefix)_scale") ?? 1,
                    offset: try device.readNumberIfPresent("\(prefix)_offset") ?? 0, unitFactor: unitFactor)
            }
        }
        return nil
    }

    /// The current value, Pa or °C.
    /// - Throws: ``IMUDeviceError/unavailable(_:)`` naming the file when it cannot be read or parsed.
    func value(of device: IIOSysfsDevice) throws(IMUDeviceError) -> Double {
        (try device.readNumber(attribute) + offset) * scale * unitFactor
    }
}
