extension IIODeviceDiscovery {
    /// The device string of the IMU the kernel offers, if any: the lowest-numbered IIO device that can
    /// buffer an accelerometer and a gyroscope, joined (`+`) with the lowest-numbered other device that can
    /// buffer a magnetometer when it has none itself — for example `iio:iio:device0+iio:device2`.
    /// Only reads sysfs; a device whose attributes cannot be read is passed over.
    /// - Returns: the device string (with `sysfs=` and `dev=` options when the directories are not the
    ///   kernel's), or `nil` when there is no such device.
    public func detectedIMUSpecification() -> String? {
        let devices = ((try? deviceDirectories()) ?? []).compactMap { try? device($0.name) }
        guard let imu = devices.first(where: { $0.bufferedAxes(of: .acceleration) != nil && $0.bufferedAxes(of: .angularVelocity) != nil })
        else { return nil }
        var specification = "iio:\(imu.directoryName)"
        if imu.bufferedAxes(of: .magneticField) == nil,
            let magnetometer = devices.first(where: { $0.number != imu.number && $0.bufferedAxes(of: .magneticField) != nil })
        {
            specification += "+\(magnetometer.directoryName)"
        }
        if sysfsRoot != Self.defaultSysfsRoot { specification += ",sysfs=\(sysfsRoot)" }
        if deviceDirectory != Self.defaultDeviceDirectory { specification += ",dev=\(deviceDirectory)" }
        return specification
    }
}
