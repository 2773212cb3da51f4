/// A kind of chip that an I²C device looks for at its address: an IMU's ``I2CChipModel`` or a barometer's
/// ``BarometerChipModel``.
protocol I2CChipCatalogEntry: Sendable {
    /// The driver a recognised chip gets.
    associatedtype Driver
    /// Short name for messages and the `chip=` option.
    var name: String { get }
    /// Recognises the chip at `address` and makes its driver on `time`; nil for another chip.
    func probe(_ bus: any I2CBus, _ address: UInt8, time: DeviceTime) throws(IMUDeviceError) -> Driver?
}

extension I2CChipModel: I2CChipCatalogEntry {}
extension BarometerChipModel: I2CChipCatalogEntry {}

extension I2CChipCatalogEntry {
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
