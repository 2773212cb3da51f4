import MotionHAL

/// The ICM-20948's register file and behaviour, without the lock: four user banks behind REG_BANK_SEL,
/// reset values, DEVICE_RESET, SLEEP, the sample rate dividers and full scales, the sensor data registers and
/// the FIFO. Addresses and reset values from the datasheet DS-000189's register map, written down here
/// independently of the driver's.
struct EmulatedICM20948State {
    // Bank 0.
    static let whoAmI: UInt8 = 0x00
    static let userControl: UInt8 = 0x03
    static let lowPowerConfiguration: UInt8 = 0x05
    static let powerManagement1: UInt8 = 0x06
    static let powerManagement2: UInt8 = 0x07
    static let interruptPinConfiguration: UInt8 = 0x0F
    static let interruptStatus2: UInt8 = 0x1B
    static let accelerometerXHigh: UInt8 = 0x2D
    static let gyroscopeXHigh: UInt8 = 0x33
    static let temperatureHigh: UInt8 = 0x39
    static let fifoEnable2: UInt8 = 0x67
    static let fifoReset: UInt8 = 0x68
    static let fifoMode: UInt8 = 0x69
    static let fifoCountHigh: UInt8 = 0x70
    static let fifoCountLow: UInt8 = 0x71
    static let fifoReadWrite: UInt8 = 0x72
    static let bankSelect: UInt8 = 0x7F
    /// Bank 0 registers the host cannot write: identity, interrupt status, sensor data, FIFO count.
    static let readOnly: Set<UInt8> = Set([whoAmI, 0x17] + Array(0x19...0x1C) + Array(0x2D...0x52) + [0x70, 0x71])
    // Bank 2.
    static let gyroscopeSampleRateDivider: UInt8 = 0x00
    static let gyroscopeConfiguration1: UInt8 = 0x01
    static let accelerometerSampleRateDivider1: UInt8 = 0x10
    static let accelerometerSampleRateDivider2: UInt8 = 0x11
    static let accelerometerConfiguration: UInt8 = 0x14

    /// The FIFO's size, bytes.
    static let fifoCapacity = 512
    /// Output data rates with the filters on: 1125 Hz / (1 + divider); with FCHOICE = 0 the gyroscope runs
    /// at 9 kHz and the accelerometer at 4.5 kHz (datasheet Tables 16 and 18).
    static let baseRate = 1125.0
    static let unfilteredGyroscopeRate = 9000.0
    static let unfilteredAccelerometerRate = 4500.0

    /// The register files of banks 0...3 (REG_BANK_SEL is kept apart: it is the same in every bank).
    private(set) var banks: [[UInt8]]
    /// REG_BANK_SEL.
    private(set) var bankSelect: UInt8 = 0
    private(set) var fifo: [UInt8] = []
    var motion: EmulatedMotion
    let identity: UInt8
    /// Frame times at the FIFO's rate; the accelerometer's samples are on the same clock's grid at its own rate.
    private var clock: EmulatedSampleClock
    /// The timing in force, `nil` while nothing samples.
    private(set) var timing: Timing?

    /// What decides when samples are taken.
    struct Timing: Equatable {
        /// Rate at which samples enter the data registers and the FIFO, Hz (the gyroscope's when it is on).
        var frameRate: Double
        /// The accelerometer's rate, Hz; `nil` when it is off.
        var accelerometerRate: Double?
        /// Whether the gyroscope is on.
        var gyroscopeOn: Bool
    }

    init(motion: EmulatedMotion, oscillatorError: Double, identity: UInt8) {
        self.motion = motion
        self.identity = identity
        clock = EmulatedSampleClock(oscillatorError: oscillatorError)
        banks = Self.resetBanks(identity: identity)
    }

    /// Power-on values: WHO_AM_I, PWR_MGMT_1 0x41 (asleep, auto clock), LP_CONFIG 0x40, GYRO_CONFIG_1 and
    /// ACCEL_CONFIG 0x01 (filters on); everything else 0.
    private static func resetBanks(identity: UInt8) -> [[UInt8]] {
        var banks = [[UInt8]](repeating: [UInt8](repeating: 0, count: 128), count: 4)
        banks[0][Int(whoAmI)] = identity
        banks[0][Int(powerManagement1)] = 0x41
        banks[0][Int(lowPowerConfiguration)] = 0x40
        banks[2][Int(gyroscopeConfiguration1)] = 0x01
        banks[2][Int(accelerometerConfiguration)] = 0x01
        return banks
    }

    /// The selected bank, 0...3.
    var bank: Int { Int(bankSelect >> 4) }

    /// A register without side effects.
    func peek(bank: Int, _ address: UInt8) -> UInt8 {
        address == Self.bankSelect ? bankSelect : banks[bank][Int(address)]
    }

    /// Whether the bypass connects the auxiliary bus to the host: INT_PIN_CFG BYPASS_EN with the I²C master off.
    var isBypassOpen: Bool {
        banks[0][Int(Self.interruptPinConfiguration)] & 0x02 != 0 && banks[0][Int(Self.userControl)] & 0x20 == 0
    }

    // MARK: Bus access

    /// A combined read at `time`: FIFO_R_W (bank 0) pops a FIFO byte per byte read and does not increment;
    /// other addresses increment within the bank.
    mutating func read(startingAt register: UInt8, count: Int, at time: UInt64) -> [UInt8] {
        advance(to: time)
        let isFIFOPort = bank == 0 && register == Self.fifoReadWrite
        var address = register
        return (0..<count).map { _ in
            defer { if !isFIFOPort { address = (address + 1) & 0x7F } }
            return readByte(address)
        }
    }

    /// A write at `time`, incrementing within the bank (FIFO_R_W pushes every byte into the FIFO).
    mutating func write(startingAt register: UInt8, bytes: [UInt8], at time: UInt64) {
        advance(to: time)
        let isFIFOPort = bank == 0 && register == Self.fifoReadWrite
        var address = register
        for byte in bytes {
            writeByte(address, byte)
            if !isFIFOPort { address = (address + 1) & 0x7F }
        }
        retime(at: time)
    }

    private mutating func readByte(_ address: UInt8) -> UInt8 {
        if address == Self.bankSelect { return bankSelect }
        guard bank == 0 else { return banks[bank][Int(address)] }
        switch address {
        case Self.interruptStatus2:
            defer { banks[0][Int(address)] = 0 }  // cleared by reading
            return banks[0][Int(address)]
        case Self.fifoCountHigh: return UInt8(fifo.count >> 8) & 0x1F
        case Self.fifoCountLow: return UInt8(fifo.count & 0xFF)
        case Self.fifoReadWrite: return fifo.isEmpty ? 0xFF : fifo.removeFirst()
        default: return banks[0][Int(address)]
        }
    }

    private mutating func writeByte(_ address: UInt8, _ value: UInt8) {
        if address == Self.bankSelect {
            bankSelect = value & 0x30
            return
        }
        guard bank == 0 else {
            banks[bank][Int(address)] = value
            return
        }
        switch address {
        case _ where Self.readOnly.contains(address):
            return
        case Self.powerManagement1 where value & 0x80 != 0:
            // DEVICE_RESET: every register back to its reset value (REG_BANK_SEL too), the FIFO emptied; the
            // bit clears itself.
            banks = Self.resetBanks(identity: identity)
            bankSelect = 0
            fifo.removeAll()
        case Self.fifoReset:
            banks[0][Int(address)] = value
            if value & 0x1F != 0 { fifo.removeAll() }
        case Self.fifoReadWrite:
            push([value])
        default:
            banks[0][Int(address)] = value
        }
    }

    // MARK: Sampling

    /// The timing the registers ask for: nothing while asleep or with both sensors disabled (PWR_MGMT_2
    /// DISABLE_ACCEL or DISABLE_GYRO all set; single axes are not emulated).
    private var configuredTiming: Timing? {
        let power = banks[0][Int(Self.powerManagement2)]
        let accelerometerOn = power & 0x38 != 0x38
        let gyroscopeOn = power & 0x07 != 0x07
        guard banks[0][Int(Self.powerManagement1)] & 0x40 == 0, accelerometerOn || gyroscopeOn else { return nil }
        let gyroscopeRate =
            banks[2][Int(Self.gyroscopeConfiguration1)] & 0x01 != 0
            ? Self.baseRate / (1 + Double(banks[2][Int(Self.gyroscopeSampleRateDivider)]))
            : Self.unfilteredGyroscopeRate
        let accelerometerDivider =
            Int(banks[2][Int(Self.accelerometerSampleRateDivider1)] & 0x0F) << 8
            | Int(banks[2][Int(Self.accelerometerSampleRateDivider2)])
        let accelerometerRate =
            banks[2][Int(Self.accelerometerConfiguration)] & 0x01 != 0
            ? Self.baseRate / (1 + Double(accelerometerDivider)) : Self.unfilteredAccelerometerRate
        return Timing(
            frameRate: gyroscopeOn ? gyroscopeRate : accelerometerRate,
            accelerometerRate: accelerometerOn ? accelerometerRate : nil, gyroscopeOn: gyroscopeOn)
    }

    /// Restarts the sample clock when a write changed the timing (woken, put to sleep, new divider or filter).
    private mutating func retime(at time: UInt64) {
        let configured = configuredTiming
        guard configured != timing else { return }
        timing = configured
        if let configured { clock.start(rate: configured.frameRate, at: time) } else { clock.stop() }
    }

    /// Takes every sample due by `time`: the data registers hold the newest, and with the FIFO on each frame
    /// copies the data registers FIFO_EN_2 selects, in register order (accelerometer, gyroscope x, y, z,
    /// temperature; the temperature reads 21 °C, count 0).
    mutating func advance(to time: UInt64) {
        guard let timing, let start = clock.start else { return }
        for frameTime in clock.due(at: time) {
            if let rate = timing.accelerometerRate {
                // The accelerometer's newest sample at the frame time, on its own grid from the same start.
                let period = clock.period * timing.frameRate / rate
                // Frame times are whole nanoseconds (truncated), so allow for that before rounding down: the
                // accelerometer's sample at the frame's own instant, not the one before.
                let sampleTime = start + UInt64(((Double(frameTime - start) + 1) / period).rounded(.down) * period)
                let value = motion.truth(sampleTime).acceleration ?? .zero
                store(Self.bigEndian(Self.counts(value, resolution: accelerometerResolution)), at: Self.accelerometerXHigh)
            }
            if timing.gyroscopeOn {
                let value = motion.truth(frameTime).rotationRate ?? .zero
                store(Self.bigEndian(Self.counts(value, resolution: gyroscopeResolution)), at: Self.gyroscopeXHigh)
            }
            let fifoOn = banks[0][Int(Self.userControl)] & 0x40 != 0 && banks[0][Int(Self.fifoReset)] & 0x1F == 0
            guard fifoOn else { continue }
            let fifoEnable = banks[0][Int(Self.fifoEnable2)]
            var frame: [UInt8] = []
            if fifoEnable & 0x10 != 0 { frame += registers(Self.accelerometerXHigh, count: 6) }
            for axis in 0..<3 where fifoEnable & (0x02 << axis) != 0 {
                frame += registers(Self.gyroscopeXHigh + UInt8(2 * axis), count: 2)
            }
            if fifoEnable & 0x01 != 0 { frame += registers(Self.temperatureHigh, count: 2) }
            if !frame.isEmpty { push(frame) }
        }
    }

    private func registers(_ address: UInt8, count: Int) -> ArraySlice<UInt8> {
        banks[0][Int(address)..<Int(address) + count]
    }

    /// m/s² per count at ACCEL_FS_SEL: ±2, 4, 8, 16 g over 2¹⁵.
    private var accelerometerResolution: Double {
        let fullScale = Double(2 << Int(banks[2][Int(Self.accelerometerConfiguration)] >> 1 & 0x03))
        return fullScale * 9.80665 / 32768
    }

    /// rad/s per count at GYRO_FS_SEL: ±250, 500, 1000, 2000 °/s over 2¹⁵.
    private var gyroscopeResolution: Double {
        let fullScale = 250 * Double(1 << Int(banks[2][Int(Self.gyroscopeConfiguration1)] >> 1 & 0x03))
        return fullScale * .pi / 180 / 32768
    }

    /// Counts of a value: rounded to the nearest count and saturated at the int16 limits.
    static func counts(_ value: SIMD3<Double>, resolution: Double) -> [Int16] {
        [value.x, value.y, value.z].map { Int16(min(max(($0 / resolution).rounded(), -32768), 32767)) }
    }

    private static func bigEndian(_ counts: [Int16]) -> [UInt8] {
        counts.flatMap { [UInt8(UInt16(bitPattern: $0) >> 8), UInt8(UInt16(bitPattern: $0) & 0xFF)] }
    }

    private mutating func store(_ bytes: [UInt8], at address: UInt8) {
        banks[0].replaceSubrange(Int(address)..<Int(address) + bytes.count, with: bytes)
    }

    /// Appends to the FIFO. Full: stream mode (FIFO_MODE 0) drops the oldest bytes, snapshot mode the new
    /// ones; either way FIFO_OVERFLOW_INT (INT_STATUS_2 bit 0) is set.
    private mutating func push(_ bytes: [UInt8]) {
        let excess = fifo.count + bytes.count - Self.fifoCapacity
        if excess > 0 {
            banks[0][Int(Self.interruptStatus2)] |= 0x01
            if banks[0][Int(Self.fifoMode)] & 0x1F == 0 {
                fifo.removeFirst(min(excess, fifo.count))
                fifo += bytes.suffix(Self.fifoCapacity)
            } else {
                fifo += bytes.prefix(max(bytes.count - excess, 0))
            }
        } else {
            fifo += bytes
        }
    }
}
