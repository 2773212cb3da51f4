extension IMUDeviceSpecification {
    /// Parses `specification`, opens the device it names and, given a calibration, wraps the device in a
    /// ``CalibratedIMU`` so that every sample arrives corrected.
    /// - Parameters:
    ///   - specification: a device string, see ``IMUDeviceSpecification``.
    ///   - calibration: the calibration to apply (see ``IMUCalibration/load(contentsOf:)``), or nil for the
    ///     device as it is.
    /// - Returns: the device, not yet started.
    /// - Throws: as ``open(_:)``.
    public static func open(_ specification: String, calibration: IMUCalibration?) throws(IMUDeviceError)
        -> any IMUDevice
    {
        let device = try open(specification)
        guard let calibration else { return device }
        return CalibratedIMU(device, calibration: calibration)
    }
}
