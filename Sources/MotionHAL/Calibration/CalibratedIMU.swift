/// An IMU whose samples are corrected by a calibration: every sample the wrapped device delivers is passed
/// through ``IMUCalibration/apply(to:)`` before it reaches the consumer. Faults, rates, starting and
/// stopping pass through unchanged; ``info`` is the wrapped device's with `(calibrated)` added to the chip.
public final class CalibratedIMU: IMUDevice {
    /// The device read.
    public let device: any IMUDevice
    /// The calibration applied.
    public let calibration: IMUCalibration
    /// The wrapped device's description, its chip marked `… (calibrated)`.
    public let info: IMUDeviceInfo

    /// Wraps `device`.
    /// - Parameters:
    ///   - device: the device to read, not started.
    ///   - calibration: the calibration to apply to its samples.
    public init(_ device: any IMUDevice, calibration: IMUCalibration) {
        self.device = device
        self.calibration = calibration
        var info = device.info
        info.chip += " (calibrated)"
        self.info = info
    }

    /// Starts the wrapped device; its samples reach `handler` calibrated.
    /// - Throws: whatever the wrapped device's `start` throws.
    public func start(sampleRate: Double, handler: @escaping @Sendable (IMUDeviceEvent) -> Void) throws {
        let calibration = self.calibration
        try device.start(sampleRate: sampleRate) { event in
            switch event {
            case .samples(let samples): handler(.samples(samples.map(calibration.apply(to:))))
            case .fault: handler(event)
            }
        }
    }

    /// Stops the wrapped device.
    public func stop() {
        device.stop()
    }
}
