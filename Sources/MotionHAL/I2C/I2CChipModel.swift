/// One kind of chip the I²C driver knows: how to recognise it and how to make its driver.
///
/// The catalog ``I2CChipModel/all`` is what `i2c:BUS@ADDRESS` tries, in order; a model whose
/// ``probe`` does not recognise the chip at the address returns `nil` and the next one is tried.
public struct I2CChipModel: Sendable {
    /// Short name, used in the device string's `chip=` option and in messages: `mpu6050`, `icm20948`, ...
    public var name: String
    /// The addresses the chip can have (set by a pin), for messages and scans.
    public var addresses: [UInt8]
    /// Reads the identity registers of the chip at the address and, when they match, makes its driver on
    /// the time given (without resetting or configuring anything).
    /// - Throws: ``IMUDeviceError/unavailable(_:)`` when nothing answers at the address.
    public var makeDriver: @Sendable (_ bus: any I2CBus, _ address: UInt8, _ time: DeviceTime) throws(IMUDeviceError) -> (any I2CChipDriver)?

    /// Creates a model.
    /// - Parameters:
    ///   - name: short name such as `mpu6050`.
    ///   - addresses: the chip's possible 7-bit addresses.
    ///   - probe: recognises the chip and makes its driver, see ``makeDriver``.
    public init(
        name: String, addresses: [UInt8],
        probe: @escaping @Sendable (_ bus: any I2CBus, _ address: UInt8, _ time: DeviceTime) throws(IMUDeviceError) -> (any I2CChipDriver)?
    ) {
        self.name = name
        self.addresses = addresses
        makeDriver = probe
    }

    /// Recognises the chip at `address` and makes its driver, see ``makeDriver``.
    /// - Parameters:
    ///   - bus: the bus.
    ///   - address: the 7-bit address.
    ///   - time: what the driver stamps its reads with and waits on (the monotonic clock on a board).
    public func probe(_ bus: any I2CBus, _ address: UInt8, time: DeviceTime = .monotonic) throws(IMUDeviceError) -> (any I2CChipDriver)? {
        try makeDriver(bus, address, time)
    }

    /// Every chip the driver supports, in the order they are probed.
    public static let all: [I2CChipModel] = [.mpu6050, .mpu6500, .mpu9250, .mpu9255, .icm20948, .lsm6dsox]
}
