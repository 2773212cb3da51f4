extension BarometerInfo {
    /// The description of a barometer chip on an I²C bus: driver `i2c`, chip `NAME at 0xAA`, with temperature.
    /// - Parameters:
    ///   - name: maker and part, e.g. `Bosch BMP280`.
    ///   - address: the chip's 7-bit address.
    ///   - supportedSampleRates: Hz.
    ///   - defaultSampleRate: Hz.
    init(i2cChip name: String, address: UInt8, supportedSampleRates: ClosedRange<Double>, defaultSampleRate: Double) {
        self.init(
            driver: "i2c", chip: "\(name) at \(I2CBusError.hex(address))", supportedSampleRates: supportedSampleRates,
            defaultSampleRate: defaultSampleRate, hasTemperature: true)
    }
}
