/// The driver for an ST LPS22HB or LPS22DF barometer (`i2c:BUS@0x5c` or `@0x5d`).
///
/// - Probe (``BarometerChipModel/lps22hb``, ``BarometerChipModel/lps22df``): WHO_AM_I (0x0F) must read the
///   variant's identity (0xB1 LPS22HB, 0xB4 LPS22DF).
/// - Start: SWRESET (CTRL_REG2 bit 2) until it clears, then BDU and continuous conversions at the slowest
///   ODR at least the rate asked for (``STPressureVariant/dataRate(atLeast:)``; the LPS22DF with its
///   averaging for that rate). The low-pass filter stays off (its lag of several samples is not wanted for
///   altitude), and the FIFO in bypass mode.
/// - Read: one burst of STATUS and the five output registers (0x27…0x2C; the address increments by
///   itself); nothing when P_DA is clear. Pressure `raw / 4096` hPa (24-bit two's complement), temperature
///   `raw / 100` °C (16-bit). The chip has no clock of its own to give, so readings are stamped by a
///   ``FIFOTimestamper`` from the read time (each at most one period after its conversion, spaced by the
///   measured period); P_OR (a value overwritten unread) advances the timestamps by the lost period.
public final class STPressureDriver: BarometerChipDriver {
    /// Driver `i2c`, chip `ST LPS22HB at 0x5c`, the chip's ODR range, 25 Hz by default, with temperature.
    public let info: BarometerInfo
    /// The bus the chip is on.
    public let bus: any I2CBus
    /// What stamps the readings and times the waits.
    private let time: DeviceTime
    /// The chip's 7-bit address.
    public let address: UInt8
    /// Which ST chip it is.
    public let variant: STPressureVariant
    /// The ODR of the last `start`, Hz; `nil` before.
    public private(set) var outputDataRate: Double?

    /// The rate used when none is asked for, Hz (an ODR of both chips).
    public static let defaultSampleRate = 25.0

    private var timestamper = FIFOTimestamper(sampleRate: defaultSampleRate)

    /// Creates the driver of a chip that its ``BarometerChipModel`` recognised; configures nothing.
    /// - Parameters:
    ///   - bus: the bus.
    ///   - address: 0x5C or 0x5D.
    ///   - variant: which chip it is.
    ///   - time: what stamps the readings and times the waits (the monotonic clock on a board).
    public init(bus: any I2CBus, address: UInt8, variant: STPressureVariant, time: DeviceTime = .monotonic) {
        self.time = time
        self.bus = bus
        self.address = address
        self.variant = variant
        info = BarometerInfo(
            i2cChip: "ST \(variant.name)", address: address, supportedSampleRates: variant.supportedSampleRates,
            defaultSampleRate: Self.defaultSampleRate)
    }

    /// Resets the chip and starts continuous conversions as described on the type.
    /// - Parameter sampleRate: Hz; the chip runs at the slowest ODR at least this.
    /// - Throws: ``IMUDeviceError/unavailable(_:)`` when the chip does not answer,
    ///   ``IMUDeviceError/readFailed(_:)`` when a transfer fails or SWRESET does not clear.
    public func start(sampleRate: Double) throws(IMUDeviceError) {
        let rate = variant.dataRate(atLeast: sampleRate)
        let resetDone: Bool
        do { resetDone = try configure(dataRateCode: rate.code) } catch { throw IMUDeviceError(error) }
        guard resetDone else {
            throw .readFailed(
                "\(variant.name) at \(I2CBusError.hex(address)) on \(bus.name): CTRL_REG2 (0x11) SWRESET did not clear")
        }
        outputDataRate = rate.rate
        timestamper = FIFOTimestamper(sampleRate: rate.rate)
    }

    /// SWRESET, then the variant's configuration writes. Returns `false` when SWRESET did not clear.
    private func configure(dataRateCode: UInt8) throws(I2CBusError) -> Bool {
        try bus.writeRegister(address: address, STPressureRegisterMap.control2, STPressureRegisterMap.softwareReset)
        var resetDone = false
        for _ in 0..<10 where !resetDone {
            resetDone = try bus.readRegister(address: address, STPressureRegisterMap.control2)
                & STPressureRegisterMap.softwareReset == 0
        }
        guard resetDone else { return false }
        for write in variant.configurationWrites(dataRateCode: dataRateCode) {
            try bus.writeRegister(address: address, write.register, write.value)
        }
        return true
    }

    /// The newest conversion when P_DA says there is one (see the type).
    /// - Returns: the reading, or `nil` when P_DA is clear.
    /// - Throws: ``IMUDeviceError/unavailable(_:)`` when the chip stopped answering,
    ///   ``IMUDeviceError/readFailed(_:)`` when the transfer failed otherwise.
    public func read() throws(IMUDeviceError) -> PressureReading? {
        let readTime = time.now()
        let bytes: [UInt8]
        do { bytes = try bus.readRegisters(address: address, startingAt: STPressureRegisterMap.status, count: 6) } catch {
            throw IMUDeviceError(error)
        }
        let status = bytes[0]
        guard status & STPressureRegisterMap.pressureReady != 0 else { return nil }
        // The 24 bits in the top of an Int32, shifted down with their sign.
        let pressure = Int32(bitPattern: UInt32(bytes[3]) << 24 | UInt32(bytes[2]) << 16 | UInt32(bytes[1]) << 8) >> 8
        let temperature = Int16(bitPattern: UInt16(bytes[4]) | UInt16(bytes[5]) << 8)
        let lost = status & STPressureRegisterMap.pressureOverrun != 0
        let timestamp = timestamper.timestamps(count: lost ? 2 : 1, readTime: readTime).last!
        return PressureReading(
            timestamp: timestamp, pressure: Double(pressure) / STPressureRegisterMap.countsPerHectopascal * 100,
            temperature: Double(temperature) / STPressureRegisterMap.countsPerDegree)
    }

    /// Powers the chip down (CTRL_REG1 ODR 0), ignoring errors.
    public func stop() {
        try? bus.writeRegister(address: address, STPressureRegisterMap.control1, 0)
    }
}
