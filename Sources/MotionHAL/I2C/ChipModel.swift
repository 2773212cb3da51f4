/// One kind of chip an I²C device looks for at its address: how to recognise it and how to make its
/// driver. `Driver` is what a recognised chip gets; the two catalogs are ``I2CChipModel`` (IMUs,
/// `any I2CChipDriver`) and ``BarometerChipModel`` (`any BarometerChipDriver`).
///
/// A catalog's `all` is what `i2c:BUS@ADDRESS` tries, in order; a model whose ``probe(_:_:time:)`` does
/// not recognise the chip at the address (another chip identity) returns `nil` and the next one is tried.
public struct ChipModel<Driver>: Sendable {
    /// Short name, used in the device string's `chip=` option and in messages: `mpu6050`, `bmp280`, ...
    public var name: String
    /// The 7-bit addresses the chip can have (set by a pin), for messages and scans.
    public var addresses: [UInt8]
    /// Reads the identity registers of the chip at the address and, when they match, makes its driver on
    /// the time given (without resetting or configuring anything). A chip without identity registers is
    /// recognised otherwise: the MS5837's probe resets it and checks its PROM's CRC-4, only at its own
    /// address and after every model with an identity register was tried.
    /// - Throws: ``IMUDeviceError/unavailable(_:)`` when nothing answers at the address (or, for a model
    ///   only tried when named, when the chip there is not what was named and the probe can say why).
    public var makeDriver: @Sendable (_ bus: any I2CBus, _ address: UInt8, _ time: DeviceTime) throws(IMUDeviceError) -> Driver?

    /// Creates a model.
    /// - Parameters:
    ///   - name: short name such as `mpu6050`.
    ///   - addresses: the chip's possible 7-bit addresses.
    ///   - probe: recognises the chip and makes its driver, see ``makeDriver``.
    public init(
        name: String, addresses: [UInt8],
        probe: @escaping @Sendable (_ bus: any I2CBus, _ address: UInt8, _ time: DeviceTime) throws(IMUDeviceError) -> Driver?
    ) {
        self.name = name
        self.addresses = addresses
        makeDriver = probe
    }

    /// A model recognised by the value of one identity register.
    /// - Parameters:
    ///   - name: short name such as `bmp280`.
    ///   - addresses: the chip's possible 7-bit addresses.
    ///   - identityRegister: the register read by the probe (0xD0 on Bosch barometers, WHO_AM_I 0x0F on ST's).
    ///   - identity: the value it holds on this chip.
    ///   - makeDriver: makes the driver of a recognised chip (configuring nothing).
    public init(
        name: String, addresses: [UInt8], identityRegister: UInt8, identity: UInt8,
        makeDriver: @escaping @Sendable (_ bus: any I2CBus, _ address: UInt8, _ time: DeviceTime) -> Driver
    ) {
        self.init(name: name, addresses: addresses) { bus, address, time throws(IMUDeviceError) in
            let value: UInt8
            do throws(I2CBusError) { value = try bus.readRegister(address: address, identityRegister) } catch {
                throw IMUDeviceError(error)
            }
            return value == identity ? makeDriver(bus, address, time) : nil
        }
    }

    /// Recognises the chip at `address` and makes its driver, see ``makeDriver``.
    /// - Parameters:
    ///   - bus: the bus.
    ///   - address: the 7-bit address.
    ///   - time: what the driver stamps its reads with and waits on (the monotonic clock on a board).
    public func probe(_ bus: any I2CBus, _ address: UInt8, time: DeviceTime = .monotonic) throws(IMUDeviceError) -> Driver? {
        try makeDriver(bus, address, time)
    }

    /// The models a `chip=` option allows: all of `catalog` for `nil`, else the one of that name.
    /// - Parameters:
    ///   - name: a model name such as `bmp280`, or `nil`.
    ///   - catalog: the models to choose from.
    ///   - kind: what they are, for the message (`I2C chip`, `barometer chip`).
    /// - Throws: ``IMUDeviceError/invalidSpecification(_:)`` for a name no model has (the message lists
    ///   the known ones).
    static func models(named name: String?, in catalog: [Self], kind: String) throws(IMUDeviceError) -> [Self] {
        guard let name else { return catalog }
        let models = catalog.filter { $0.name == name }
        guard !models.isEmpty else {
            throw .invalidSpecification("unknown \(kind) '\(name)' (known chips: \(catalog.map(\.name).joined(separator: ", ")))")
        }
        return models
    }

    /// Opens the bus and finds which of `models` is the chip at `address`.
    /// - Parameters:
    ///   - kind: what the models are, for the message (`chips`, `barometers`).
    /// - Throws: ``IMUDeviceError/unavailable(_:)`` when the bus cannot be opened, nothing answers or no
    ///   model recognises the chip.
    static func identify(
        among models: [Self], kind: String, openBus: @Sendable () throws(I2CBusError) -> any I2CBus, busName: String,
        address: UInt8, time: DeviceTime
    ) throws(IMUDeviceError) -> (Self, Driver) {
        let bus: any I2CBus
        do { bus = try openBus() } catch { throw .unavailable(error.description) }
        for model in models {
            if let driver = try model.probe(bus, address, time: time) { return (model, driver) }
        }
        let names = models.map(\.name).joined(separator: ", ")
        throw .unavailable("the chip at \(I2CBusError.hex(address)) on \(busName) is none of the supported \(kind) (\(names))")
    }
}
