/// One kind of chip the I²C driver knows: how to recognise it and how to make its driver.
///
/// The catalog ``I2CChipModel/all`` is what `i2c:BUS@ADDRESS` tries, in order; a model whose
/// ``probe`` does not recognise the chip at the address returns `nil` and the next one is tried.
public struct I2CChipModel: Sendable {
    /// Short name, used in the device string's `chip=` option and in messages: `mpu6050`, `icm20948`, ...
    public var name: String
    /// The addresses the chip can have (set by a pin), for messages and scans.
    public var addresses: [UInt8]
    /// Reads the identity registers of the chip at the address and, when they match, makes its driver
    /// (without resetting or configuring anything).
    /// - Throws: ``IMUDeviceError/unavailable(_:)`` when nothing answers at the address.
    public var probe: @Sendable (_ bus: any I2CBus, _ address: UInt8) throws(IMUDeviceError) -> (any I2CChipDriver)?

    /// Creates a model.
    /// - Parameters:
    ///   - name: short name such as `mpu6050`.
    ///   - addresses: the chip's possible 7-bit addresses.
    ///   - probe: recognises the chip and makes its driver, see ``probe``.
    public init(
        name: String, addresses: [UInt8],
        probe: @escaping @Sendable (_ bus: any I2CBus, _ address: UInt8) throws(IMUDeviceError) -> (any I2CChipDriver)?
    ) {
        self.name = name
        self.addresses = addresses
        self.probe = probe
    }

    /// Every chip the driver supports, in the order they are probed.
    public static let all: [I2CChipModel] = [.mpu6050, .mpu6500, .mpu9250, .mpu9255, .icm20948, .lsm6dsox]
}
