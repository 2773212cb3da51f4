/// The driver for a TE MS5837-30BA or MS5837-02BA water-pressure sensor (`i2c:BUS@0x76`).
///
/// - Probe (``BarometerChipModel/ms5837``, ``BarometerChipModel/ms5837_30ba``,
///   ``BarometerChipModel/ms5837_02ba``): the chip has no identity register, so its probe resets it and
///   reads its PROM (``readPROM(bus:address:time:)``): the CRC-4 and the version field say what it is.
/// - Start: reset (0x1E), the PROM reload time, PROM words 0…6 (``MS5837Compensation``: CRC-4 checked);
///   the oversampling for the rate (``MS5837Variant/oversampling(forRate:)``).
/// - Conversions: the chip converts only when told, one quantity at a time, so the driver runs a cycle
///   per reading, one period apart from the start: convert D2 (temperature), read it once its maximum
///   conversion time has passed, convert D1 (pressure), read it, compensate. Each ``read()`` takes the
///   cycle as far as the time allows (``I2CBarometer`` calls it twice a period, and each conversion takes
///   at most 0.4 of one). A cycle that fell more than a period behind starts anew from now.
/// - Read: the 24-bit ADC result (0x00). A 0 (the conversion was lost: the chip reset itself, or the read
///   came early) ends the cycle without a reading; the next starts on time. The reading is the
///   datasheet's first- and second-order compensation in Pa and °C, stamped at the middle of the pressure
///   conversion (its command plus half the maximum conversion time).
/// - Stop: nothing to put to sleep: the chip idles between conversions (standby below 0.1 µA).
///
/// Threading: one thread at a time, as every ``BarometerChipDriver`` (``I2CBarometer``'s poll thread);
/// ``readPROM(bus:address:time:)`` any.
public final class MS5837Driver: BarometerChipDriver {
    /// Driver `i2c`, chip `TE MS5837-30BA at 0x76`, 1…100 Hz, 25 Hz by default, with temperature.
    public let info: BarometerInfo
    /// The bus the chip is on.
    public let bus: any I2CBus
    /// The chip's 7-bit address (0x76).
    public let address: UInt8
    /// Which part it is.
    public let variant: MS5837Variant
    /// The calibration read at the last `start`; `nil` before.
    public private(set) var compensation: MS5837Compensation?
    /// The oversampling of the last `start`; `nil` before.
    public private(set) var oversampling: MS5837Oversampling?
    /// The rate of the last `start`, Hz: a reading each period; `nil` before.
    public private(set) var outputDataRate: Double?

    /// The rate used when none is asked for, Hz (OSR 4096 on both parts).
    public static let defaultSampleRate = 25.0

    /// What stamps the readings and times the conversions.
    private let time: DeviceTime
    /// Where the cycle of conversions is.
    private var phase = Phase.idle(nextCycle: 0)
    /// The last reading's timestamp, ns.
    private var lastTimestamp: UInt64 = 0

    private enum Phase {
        /// No conversion runs; the next cycle starts at `nextCycle` (ns).
        case idle(nextCycle: UInt64)
        /// D2 was commanded at `commanded` (ns) in the cycle that started at `cycle`.
        case temperature(commanded: UInt64, cycle: UInt64)
        /// D1 was commanded at `commanded`, after D2 read `d2`.
        case pressure(commanded: UInt64, cycle: UInt64, d2: UInt32)
    }

    /// Creates the driver of a chip that its ``BarometerChipModel`` recognised (it was reset; nothing is
    /// converting).
    /// - Parameters:
    ///   - bus: the bus.
    ///   - address: 0x76.
    ///   - variant: which part it is.
    ///   - time: what stamps the readings and times the waits (the monotonic clock on a board).
    public init(bus: any I2CBus, address: UInt8, variant: MS5837Variant, time: DeviceTime = .monotonic) {
        self.bus = bus
        self.address = address
        self.variant = variant
        self.time = time
        var info = BarometerInfo(
            i2cChip: "TE \(variant.name)", address: address, supportedSampleRates: MS5837Variant.supportedSampleRates,
            defaultSampleRate: Self.defaultSampleRate)
        info.pressureRange = variant.pressureRange
        self.info = info
    }

    /// Resets the chip, reads and checks its calibration and starts the cycle of conversions.
    /// - Parameter sampleRate: Hz, inside 1…100.
    /// - Throws: ``IMUDeviceError/unavailable(_:)`` when the chip does not answer,
    ///   ``IMUDeviceError/readFailed(_:)`` when a transfer fails or the PROM holds no valid calibration
    ///   (the message says which CRC was read and which computed).
    public func start(sampleRate: Double) throws(IMUDeviceError) {
        let prom: [UInt16]
        do { prom = try Self.readPROM(bus: bus, address: address, time: time) } catch { throw IMUDeviceError(error) }
        do {
            compensation = try MS5837Compensation(prom: prom, variant: variant)
        } catch {
            throw .readFailed("\(variant.name) at \(I2CBusError.hex(address)) on \(bus.name): \(error)")
        }
        oversampling = variant.oversampling(forRate: sampleRate)
        outputDataRate = sampleRate
        phase = .idle(nextCycle: time.now())
    }

    /// Advances the cycle of conversions as far as the time allows (see the type).
    /// - Returns: the reading of a cycle that ended in this call, or `nil`.
    /// - Throws: ``IMUDeviceError/unavailable(_:)`` when the chip stopped answering,
    ///   ``IMUDeviceError/readFailed(_:)`` when a transfer failed otherwise (the cycle goes on at the next call).
    public func read() throws(IMUDeviceError) -> PressureReading? {
        guard let compensation, let oversampling, let rate = outputDataRate else { return nil }
        do { return try advance(compensation, oversampling, period: UInt64(1e9 / rate)) } catch { throw IMUDeviceError(error) }
    }

    /// Forgets the cycle: the chip needs nothing to sleep (a conversion in flight ends by itself).
    public func stop() {
        phase = .idle(nextCycle: 0)
        outputDataRate = nil
    }

    /// Resets the chip at `address`, waits for the PROM reload and reads PROM words 0…6.
    /// - Parameters:
    ///   - bus: the bus.
    ///   - address: the chip's address.
    ///   - time: what the reload wait runs on.
    /// - Returns: the seven words (big-endian on the bus).
    /// - Throws: the bus's error.
    public static func readPROM(bus: any I2CBus, address: UInt8, time: DeviceTime) throws(I2CBusError) -> [UInt16] {
        try bus.sendCommand(address: address, MS5837Commands.reset)
        time.sleep(seconds: MS5837Commands.resetTime)
        var words: [UInt16] = []
        for index in 0..<MS5837Commands.promWords {
            let bytes = try bus.readRegisters(address: address, startingAt: MS5837Commands.promRead(word: index), count: 2)
            words.append(UInt16(bytes[0]) << 8 | UInt16(bytes[1]))
        }
        return words
    }

    /// The state machine of a cycle; returns the reading of a cycle that ends now.
    private func advance(
        _ compensation: MS5837Compensation, _ oversampling: MS5837Oversampling, period: UInt64
    ) throws(I2CBusError) -> PressureReading? {
        let conversion = UInt64(oversampling.maximumConversionTime * 1e9)
        var reading: PressureReading?
        while true {
            let now = time.now()
            switch phase {
            case .idle(let next):
                guard now >= next else { return reading }
                try command(MS5837Commands.convertTemperature + oversampling.commandOffset)
                phase = .temperature(commanded: now, cycle: now - next > period ? now : next)
            case .temperature(let commanded, let cycle):
                guard now >= commanded + conversion else { return reading }
                let d2 = try adc()
                guard d2 != 0 else {
                    phase = .idle(nextCycle: cycle + period)
                    continue
                }
                try command(MS5837Commands.convertPressure + oversampling.commandOffset)
                phase = .pressure(commanded: now, cycle: cycle, d2: d2)
            case .pressure(let commanded, let cycle, let d2):
                guard now >= commanded + conversion else { return reading }
                let d1 = try adc()
                phase = .idle(nextCycle: cycle + period)
                guard d1 != 0 else { continue }
                let output = compensation.compensate(d1: d1, d2: d2)
                let timestamp = max(commanded + conversion / 2, lastTimestamp + 1)
                lastTimestamp = timestamp
                reading = PressureReading(timestamp: timestamp, pressure: output.pascals, temperature: output.celsius)
            }
        }
    }

    private func command(_ byte: UInt8) throws(I2CBusError) {
        try bus.sendCommand(address: address, byte)
    }

    /// The 24-bit result of the last conversion (0: none).
    private func adc() throws(I2CBusError) -> UInt32 {
        let bytes = try bus.readRegisters(address: address, startingAt: MS5837Commands.adcRead, count: MS5837Commands.adcLength)
        return UInt32(bytes[0]) << 16 | UInt32(bytes[1]) << 8 | UInt32(bytes[2])
    }
}
