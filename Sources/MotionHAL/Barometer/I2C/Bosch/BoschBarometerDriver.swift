/// The driver for a Bosch BMP280 or BME280 barometer (`i2c:BUS@0x76` or `@0x77`; a BME280's relative
/// humidity comes with each reading).
///
/// - Probe (``BarometerChipModel/bmp280``, ``BarometerChipModel/bme280``): the id register (0xD0) must read
///   the variant's identity (0x58 BMP280, 0x60 BME280).
/// - Start: soft reset (0xB6 to 0xE0), the 2 ms start-up time, then until status im_update clears; the
///   trimming parameters (0x88…0x9F, ``BoschCompensation``; a BME280's humidity parameters at 0xA1 and
///   0xE1…0xE7, ``BoschHumidityCompensation``); then, in sleep mode, ctrl_hum ×1 (BME280), config
///   (standby and IIR filter) and last ctrl_meas (oversampling and normal mode), as
///   ``BoschMeasurementSettings`` chooses them for the rate.
/// - Data ready: the chip has no data-ready flag in normal mode, so the driver counts cycles from the
///   moment it started the chip: a conversion is ready once its longest conversion time plus its cycles
///   have passed, and is stamped with its typical completion time. The chip's oscillator is not the host's
///   (its standby time is not specified closer than a few per cent), so over a long run a reading may
///   repeat the previous conversion or skip one; the values are right either way, only which conversion
///   is read differs.
/// - Read: one burst of the six data registers (0xF7…0xFC, eight with a BME280's humidity to 0xFE), so the
///   values come from the same conversion; compensated with the datasheet's 32-bit temperature, 64-bit
///   pressure and 32-bit humidity formulas. A pressure or temperature the chip marks as not measured
///   (0x80000: the reset value, or oversampling "skipped" after the chip reset itself) is no reading:
///   `read()` returns `nil` (and ``I2CBarometer``'s stall detection configures the chip again); a humidity
///   not measured (0x8000) leaves the reading's humidity `nil`.
public final class BoschBarometerDriver: BarometerChipDriver {
    /// Driver `i2c`, chip `Bosch BMP280 at 0x76`, the variant's rates, 25 Hz by default, with temperature.
    public let info: BarometerInfo
    /// The bus the chip is on.
    public let bus: any I2CBus
    /// What stamps the readings and times the waits.
    private let time: DeviceTime
    /// The chip's 7-bit address.
    public let address: UInt8
    /// Which Bosch chip it is.
    public let variant: BoschBarometerVariant
    /// The settings of the last `start`; `nil` before.
    public private(set) var settings: BoschMeasurementSettings?
    /// The trimming parameters read at the last `start`; `nil` before.
    public private(set) var compensation: BoschCompensation?
    /// The humidity trimming parameters read at the last `start` (BME280 only); `nil` before or without.
    public private(set) var humidityCompensation: BoschHumidityCompensation?
    /// The rate of the last `start`'s settings, Hz.
    public var outputDataRate: Double? { settings?.rate }

    /// The rate used when none is asked for, Hz (the chip runs at 26.3 Hz for it).
    public static let defaultSampleRate = 25.0

    /// `CLOCK_MONOTONIC` ns when normal mode began (just after ctrl_meas was written).
    private var normalModeStart: UInt64 = 0
    /// How many conversions since then have been read or passed over.
    private var conversionsConsumed = 0

    /// Creates the driver of a chip that its ``BarometerChipModel`` recognised; configures nothing.
    /// - Parameters:
    ///   - bus: the bus.
    ///   - address: 0x76 or 0x77.
    ///   - variant: which chip it is.
    ///   - time: what stamps the readings and times the waits (the monotonic clock on a board).
    public init(bus: any I2CBus, address: UInt8, variant: BoschBarometerVariant, time: DeviceTime = .monotonic) {
        self.time = time
        self.bus = bus
        self.address = address
        self.variant = variant
        info = BarometerInfo(
            i2cChip: "Bosch \(variant.name)", address: address, supportedSampleRates: variant.supportedSampleRates,
            defaultSampleRate: Self.defaultSampleRate)
    }

    /// Resets, reads the trimming parameters and starts normal mode as described on the type.
    /// - Parameter sampleRate: Hz; see ``BoschMeasurementSettings``.
    /// - Throws: ``IMUDeviceError/unavailable(_:)`` when the chip does not answer,
    ///   ``IMUDeviceError/readFailed(_:)`` when a transfer fails, im_update does not clear or the trimming
    ///   registers hold no calibration.
    public func start(sampleRate: Double) throws(IMUDeviceError) {
        let settings = BoschMeasurementSettings(sampleRate: sampleRate, variant: variant)
        let outcome: Result<(BoschCompensation, BoschHumidityCompensation?), IMUDeviceError>
        do { outcome = try configure(settings) } catch { throw IMUDeviceError(error) }
        (compensation, humidityCompensation) = try outcome.get()
        self.settings = settings
        normalModeStart = time.now()
        conversionsConsumed = 0
    }

    /// Reset, trimming readout and configuration; a failure that is not the bus's as the result.
    private func configure(
        _ settings: BoschMeasurementSettings
    ) throws(I2CBusError) -> Result<(BoschCompensation, BoschHumidityCompensation?), IMUDeviceError> {
        try write(BoschBarometerRegisterMap.reset, BoschBarometerRegisterMap.resetCommand)
        time.sleep(seconds: 0.002)  // start-up time (§1, table 2)
        var copied = false
        for _ in 0..<10 where !copied {
            copied = try bus.readRegister(address: address, BoschBarometerRegisterMap.status)
                & BoschBarometerRegisterMap.updatingTrimming == 0
            if !copied { time.sleep(seconds: 0.001) }
        }
        guard copied else { return .failure(.readFailed("\(chipName): status (0xF3) im_update did not clear after the reset")) }
        let trimming = try bus.readRegisters(
            address: address, startingAt: BoschBarometerRegisterMap.trimming, count: BoschBarometerRegisterMap.trimmingLength)
        guard let compensation = BoschCompensation(trimming: trimming) else {
            return .failure(.readFailed("\(chipName): the trimming registers 0x88…0x9F hold no calibration (dig_T1 or dig_P1 is 0)"))
        }
        var humidity: BoschHumidityCompensation?
        if variant.hasHumidity {
            let h1 = try bus.readRegister(address: address, BoschBarometerRegisterMap.humidityTrimming1)
            let rest = try bus.readRegisters(
                address: address, startingAt: BoschBarometerRegisterMap.humidityTrimming2,
                count: BoschBarometerRegisterMap.humidityTrimmingLength)
            guard let decoded = BoschHumidityCompensation(h1: h1, bytes: rest) else {
                return .failure(.readFailed("\(chipName): the humidity trimming registers 0xE1…0xE7 hold no calibration (dig_H2 is 0)"))
            }
            humidity = decoded
            try write(BoschBarometerRegisterMap.controlHumidity, settings.controlHumidity)  // before ctrl_meas (§5.4.3)
        }
        try write(BoschBarometerRegisterMap.configuration, settings.configuration)
        try write(BoschBarometerRegisterMap.controlMeasurement, settings.controlMeasurement)
        return .success((compensation, humidity))
    }

    /// The newest conversion when one has completed since the last call (see the type's "data ready").
    /// - Returns: the compensated reading, or `nil` when none is ready or its values are marked not measured.
    /// - Throws: ``IMUDeviceError/unavailable(_:)`` when the chip stopped answering,
    ///   ``IMUDeviceError/readFailed(_:)`` when the transfer failed otherwise.
    public func read() throws(IMUDeviceError) -> PressureReading? {
        guard let settings, let compensation else { return nil }
        let completed = settings.completedConversions(after: time.now() - normalModeStart)
        guard completed > conversionsConsumed else { return nil }
        let bytes: [UInt8]
        do {
            bytes = try bus.readRegisters(
                address: address, startingAt: BoschBarometerRegisterMap.pressureData, count: humidityCompensation == nil ? 6 : 8)
        } catch {
            throw IMUDeviceError(error)
        }
        conversionsConsumed = completed
        func raw(_ offset: Int) -> Int32 {
            Int32(bytes[offset]) << 12 | Int32(bytes[offset + 1]) << 4 | Int32(bytes[offset + 2] >> 4)
        }
        let (pressureRaw, temperatureRaw) = (raw(0), raw(3))
        guard pressureRaw != BoschBarometerRegisterMap.skipped, temperatureRaw != BoschBarometerRegisterMap.skipped else {
            return nil
        }
        let temperature = compensation.temperature(adc: temperatureRaw)
        let pressure = compensation.pressure(adc: pressureRaw, fineTemperature: temperature.fineTemperature)
        guard pressure != 0 else { return nil }
        var humidity: Double?
        if let humidityCompensation {
            let raw = Int32(bytes[6]) << 8 | Int32(bytes[7])
            if raw != BoschBarometerRegisterMap.humiditySkipped {
                humidity = Double(humidityCompensation.humidity(adc: raw, fineTemperature: temperature.fineTemperature)) / 1024
            }
        }
        return PressureReading(
            timestamp: normalModeStart + settings.completionTime(ofConversion: completed - 1),
            pressure: Double(pressure) / 256, temperature: Double(temperature.centidegrees) / 100, humidity: humidity)
    }

    /// Puts the chip in sleep mode (ctrl_meas 0), ignoring errors.
    public func stop() {
        try? write(BoschBarometerRegisterMap.controlMeasurement, BoschBarometerRegisterMap.sleepMode)
    }

    /// `BMP280 at 0x76 on /dev/i2c-1`, for messages.
    private var chipName: String { "\(variant.name) at \(I2CBusError.hex(address)) on \(bus.name)" }

    private func write(_ register: UInt8, _ value: UInt8) throws(I2CBusError) {
        try bus.writeRegister(address: address, register, value)
    }
}
