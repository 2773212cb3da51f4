/// An IMU mounted turned on its board: every vector sample of the wrapped device is taken from the device's
/// axes into the board's by a ``MountMatrix`` (`v_board = M · v_device`), so that the fusion and
/// CoreMotion see the board's axes. Faults, rates, starting and stopping pass through; ``info`` is the
/// wrapped device's with the matrix noted in its chip.
///
/// Drivers that know their chip's placement apply it themselves (IIO's `mount_matrix`, ``I2CIMU``'s
/// `mountMatrix`); this wrapper is for a placement the configuration gives, on top of what the driver delivers.
public final class MountedIMU: IMUDevice {
    /// The device read.
    public let device: any IMUDevice
    /// Device axes → board axes.
    public let mountMatrix: MountMatrix
    /// The wrapped device's description, its chip marked `… (mounted M)`.
    public let info: IMUDeviceInfo

    /// Wraps `device`.
    /// - Parameters:
    ///   - device: the device to read, not started.
    ///   - mountMatrix: its axes → the board's axes.
    public init(_ device: any IMUDevice, mountMatrix: MountMatrix) {
        self.device = device
        self.mountMatrix = mountMatrix
        var info = device.info
        info.chip += " (mount matrix \(mountMatrix))"
        self.info = info
    }

    /// Starts the wrapped device; its samples reach `handler` in the board's axes.
    /// - Throws: whatever the wrapped device's `start` throws.
    public func start(sampleRate: Double, handler: @escaping @Sendable (IMUDeviceEvent) -> Void) throws {
        let matrix = mountMatrix
        try device.start(sampleRate: sampleRate) { event in
            guard case .samples(var samples) = event else { return handler(event) }
            for index in samples.indices {
                samples[index].acceleration = samples[index].acceleration.map(matrix.apply)
                samples[index].rotationRate = samples[index].rotationRate.map(matrix.apply)
                samples[index].magneticField = samples[index].magneticField.map(matrix.apply)
            }
            handler(.samples(samples))
        }
    }

    /// Stops the wrapped device.
    public func stop() {
        device.stop()
    }
}
