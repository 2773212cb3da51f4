/// One kind of barometer chip the I²C driver knows: how to recognise it and how to make its driver.
///
/// The catalog ``BarometerChipModel/all`` is what `i2c:BUS@ADDRESS` tries, in order; a model whose
/// ``probe`` does not recognise the chip at the address (another chip identity) returns `nil` and the next
/// one is tried.
public struct BarometerChipModel: Sendable {
    /// Short name, used in the specification's `chip=` option and in messages: `bmp280`, `lps22hb`, ...
    public var name: String
    /// The 7-bit addresses the chip can have (set by its SDO/SA0 pin), for messages and scans.
    public var addresses: [UInt8]
    /// Reads the identity register of the chip at the address and, when it matches, makes its driver on
    /// the time given (without resetting or configuring anything).
    /// - Throws: ``IMUDeviceError/unavailable(_:)`` when nothing answers at the address.
    public var makeDriver: @Sendable (_ bus: any I2CBus, _ address: UInt8, _ time: DeviceTime) throws(IMUDeviceError) -> (any BarometerChipDriver)?

    /// Creates a model.
    /// - Parameters:
    ///   - name: short name such as `bmp280`.
    ///   - addresses: the chip's possible 7-bit addresses.
    ///   - probe: recognises the chip and makes its driver, see ``makeDriver``.
    public init(
        name: String, addresses: [UInt8],
        probe: @escaping @Sendable (_ bus: any I2CBus, _ address: UInt8, _ time: DeviceTime) throws(IMUDeviceError) -> (any BarometerChipDriver)?
    ) {
        self.name = name
        self.addresses = addresses
        makeDriver = probe
    }

    /// Recognises the chip at `address` and makes its driver, see ``makeDriver``.
    /// - Parameters:
    ///   - bus: the bus.
    ///   - address: the 7-bit address.
    ///   - time: what the driver stamps its readings with and waits on (the monotonic clock on a board).
    public func probe(_ bus: any I2CBus, _ address: UInt8, time: DeviceTime = .monotonic) throws(IMUDeviceError) -> (any BarometerChipDriver)? {
        try makeDriver(bus, address, time)
    }

    /// A model recognised by the value of one identity register.
    /// - Parameters:
    ///   - name: short name such as `bmp280`.
    ///   - addresses: the chip's possible 7-bit addresses.
    ///   - identityRegister: the register read by the probe (0xD0 on Bosch chips, WHO_AM_I 0x0F on ST's).
    ///   - identity: the value it holds on this chip.
    ///   - makeDriver: makes the driver of a recognised chip (configuring nothing).
    public init(
        name: String, addresses: [UInt8], identityRegister: UInt8, identity: UInt8,
        makeDriver: @escaping @Sendable (_ bus: any I2CBus, _ address: UInt8, _ time: DeviceTime) -> any BarometerChipDriver
    ) {
        self.init(name: name, addresses: addresses) { bus, address, time throws(IMUDeviceError) in
            let value: UInt8
            do throws(I2CBusError) { value = try bus.readRegister(address: address, identityRegister) } catch {
                throw IMUDeviceError(error)
            }
            return value == identity ? makeDriver(bus, address, time) : nil
        }
    }

    /// The Bosch BMP280 (chip ID 0x58 at 0xD0) at 0x76 or 0x77: see ``BoschBarometerDriver``.
    public static let bmp280 = bosch(.bmp280)
    /// The Bosch BME280 (chip ID 0x60 at 0xD0) at 0x76 or 0x77, with relative humidity: see ``BoschBarometerDriver``.
    public static let bme280 = bosch(.bme280)
    /// The ST LPS22HB (WHO_AM_I 0xB1 at 0x0F) at 0x5C or 0x5D: see ``STPressureDriver``.
    public static let lps22hb = st(.lps22hb)
    /// The ST LPS22DF (WHO_AM_I 0xB4 at 0x0F) at 0x5C or 0x5D: see ``STPressureDriver``.
    public static let lps22df = st(.lps22df)

    /// Every chip the driver supports, in the order they are probed.
    public static let all: [BarometerChipModel] = [.bmp280, .bme280, .lps22hb, .lps22df]

    /// The models a `chip=` option allows: every model for `nil`, else the one of that name.
    /// - Parameter name: a model name such as `bmp280`, or `nil`.
    /// - Throws: ``IMUDeviceError/invalidSpecification(_:)`` for a name no model has (the message lists
    ///   the known ones).
    public static func models(named name: String?) throws(IMUDeviceError) -> [BarometerChipModel] {
        guard let name else { return all }
        let models = all.filter { $0.name == name }
        guard !models.isEmpty else {
            throw .invalidSpecification(
                "unknown barometer chip '\(name)' (known chips: \(all.map(\.name).joined(separator: ", ")))")
        }
        return models
    }

    private static func bosch(_ variant: BoschBarometerVariant) -> BarometerChipModel {
        BarometerChipModel(
            name: variant.name.lowercased(), addresses: BoschBarometerRegisterMap.addresses,
            identityRegister: BoschBarometerRegisterMap.chipIdentity, identity: variant.chipIdentity
        ) { bus, address, time in BoschBarometerDriver(bus: bus, address: address, variant: variant, time: time) }
    }

    private static func st(_ variant: STPressureVariant) -> BarometerChipModel {
        BarometerChipModel(
            name: variant.name.lowercased(), addresses: STPressureRegisterMap.addresses,
            identityRegister: STPressureRegisterMap.whoAmI, identity: variant.identity
        ) { bus, address, time in STPressureDriver(bus: bus, address: address, variant: variant, time: time) }
    }
}
