/// A LIS3MDL magnetometer sharing the bus with an LSM6DSOX (Adafruit's LSM6DSOX + LIS3MDL FeatherWing and
/// 9-DoF breakouts), run by ``LSM6DSOXDriver``: it has no FIFO, so the driver reads its latest value after
/// each FIFO read when STATUS_REG says a new one is ready.
///
/// It runs continuously in ultra-high-performance mode (OM and OMZ 11, the lowest noise) at the fastest DO
/// rate not above the IMU's rate, at most 80 Hz, with block data update so X, Y and Z come from the same
/// conversion. Multi-byte reads set bit 7 of the register number (the chip's auto-increment flag).
final class LIS3MDLMagnetometer {
    /// The bus it is on.
    let bus: any I2CBus
    /// Its 7-bit address, 0x1C or 0x1E.
    let address: UInt8
    /// The full scale it is configured for.
    let scale: LIS3MDLScale
    /// The conversion rate chosen at the last `start`, Hz.
    private(set) var rate: Double = 0

    private init(bus: any I2CBus, address: UInt8, scale: LIS3MDLScale) {
        self.bus = bus
        self.address = address
        self.scale = scale
    }

    /// Looks for a LIS3MDL at 0x1C, then 0x1E: the first address that answers with WHO_AM_I 0x3D.
    /// - Parameters:
    ///   - bus: the bus to search.
    ///   - scale: the full scale to use.
    /// - Returns: the magnetometer, or `nil` when no address answers with the LIS3MDL's identity.
    /// - Throws: ``IMUDeviceError/readFailed(_:)`` when a transfer fails for another reason than a missing
    ///   acknowledge (the bus itself is in trouble).
    static func find(on bus: any I2CBus, scale: LIS3MDLScale) throws(IMUDeviceError) -> LIS3MDLMagnetometer? {
        for address in LIS3MDLRegisterMap.addresses {
            do {
                if try bus.readRegister(address: address, LIS3MDLRegisterMap.whoAmI) == LIS3MDLRegisterMap.identity {
                    return LIS3MDLMagnetometer(bus: bus, address: address, scale: scale)
                }
            } catch .noAcknowledge {
                continue
            } catch {
                throw IMUDeviceError(error)
            }
        }
        return nil
    }

    /// The DO rate the magnetometer runs at beside an IMU sampling at `sampleRate`: the fastest not above it,
    /// at most 80 Hz (0.625 Hz at the least).
    /// - Parameter sampleRate: the IMU's output data rate, Hz.
    /// - Returns: the DO code (0…7) and its rate, Hz.
    static func dataRate(forSampleRate sampleRate: Double) -> (code: UInt8, rate: Double) {
        let index = LIS3MDLRegisterMap.dataRates.lastIndex { $0 <= sampleRate } ?? 0
        return (UInt8(index), LIS3MDLRegisterMap.dataRates[index])
    }

    /// Resets the chip and starts continuous conversions.
    /// - Parameter sampleRate: the IMU's output data rate, Hz (sets the magnetometer's rate, see
    ///   ``dataRate(forSampleRate:)``).
    /// - Throws: the bus's error; ``IMUDeviceError/readFailed(_:)`` when SOFT_RST does not clear.
    func start(sampleRate: Double) throws(IMUDeviceError) {
        let resetDone: Bool
        do { resetDone = try configure(sampleRate: sampleRate) } catch { throw IMUDeviceError(error) }
        guard resetDone else {
            throw .readFailed(
                "LIS3MDL at \(I2CBusError.hex(address)) on \(bus.name): CTRL_REG2 (0x21) SOFT_RST did not clear")
        }
    }

    /// Soft reset, then the configuration described on the type, continuous mode last.
    /// - Returns: `false` when SOFT_RST did not clear (nothing configured).
    private func configure(sampleRate: Double) throws(I2CBusError) -> Bool {
        try write(LIS3MDLRegisterMap.control2, LIS3MDLRegisterMap.softReset)
        var resetDone = false
        for _ in 0..<10 where !resetDone {
            resetDone = try bus.readRegister(address: address, LIS3MDLRegisterMap.control2)
                & LIS3MDLRegisterMap.softReset == 0
        }
        guard resetDone else { return false }
        let dataRate = Self.dataRate(forSampleRate: sampleRate)
        rate = dataRate.rate
        try write(LIS3MDLRegisterMap.control1, LIS3MDLRegisterMap.ultraHighPerformanceXY | dataRate.code << 2)
        try write(LIS3MDLRegisterMap.control2, scale.fieldValue)
        try write(LIS3MDLRegisterMap.control4, LIS3MDLRegisterMap.ultraHighPerformanceZ)
        try write(LIS3MDLRegisterMap.control5, LIS3MDLRegisterMap.blockDataUpdate)
        try write(LIS3MDLRegisterMap.control3, LIS3MDLRegisterMap.continuousMode)
        return true
    }

    /// The newest field when the chip has converted one since the last call, µT in the LIS3MDL's axes.
    ///
    /// One combined read of STATUS_REG and the six output bytes (bit 7 set: auto-increment); reading the outputs
    /// clears ZYXDA. An overrun (ZYXOR: a conversion replaced one never read) loses nothing the fusion needs,
    /// only the newest value matters, so it is not reported.
    /// - Returns: the field, or `nil` when ZYXDA is clear.
    func readIfReady() throws(I2CBusError) -> SIMD3<Double>? {
        let bytes = try bus.readRegisters(
            address: address, startingAt: LIS3MDLRegisterMap.status | LIS3MDLRegisterMap.autoIncrement, count: 7)
        guard bytes[0] & LIS3MDLRegisterMap.newDataAvailable != 0 else { return nil }
        func value(_ offset: Int) -> Double {
            Double(Int16(bitPattern: UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8)) * scale.sensitivity
        }
        return SIMD3(value(1), value(3), value(5))
    }

    /// Powers the magnetometer down (CTRL_REG3 MD = 11), ignoring errors.
    func stop() {
        try? write(LIS3MDLRegisterMap.control3, LIS3MDLRegisterMap.powerDownMode)
    }

    private func write(_ register: UInt8, _ value: UInt8) throws(I2CBusError) {
        try bus.writeRegister(address: address, register, value)
    }
}
