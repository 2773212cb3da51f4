/// The driver for an ST LSM6DSOX accelerometer and gyroscope (`i2c:BUS@0x6a` or `@0x6b`), with the LIS3MDL
/// magnetometer that Adafruit's LSM6DSOX + LIS3MDL FeatherWing and 9-DoF boards put on the same bus.
///
/// - Probe: WHO_AM_I (0x0F) must read 0x6C. The driver then looks for a LIS3MDL at 0x1C and 0x1E (WHO_AM_I
///   0x3D): with one the device is 9-axis, without one 6-axis. Its values are mapped into the LSM6DSOX's axes
///   by ``magnetometerAlignment``: identity by default, for boards that place both chips the same way round
///   (both datasheets draw right-handed X/Y/Z axes relative to pin 1); a board that turns one chip against
///   the other passes that rotation, and the board's own mount matrix then applies to all three sensors.
/// - Start: SW_RESET, then BDU and IF_INC (auto-increment), both sensors at the same output data rate (the
///   nearest of 12.5 … 1666 Hz, see ``LSM6DSOXOutputDataRate/nearest(to:)``; the chip's own default
///   filtering, LPF1 at ODR/2 for the accelerometer, DS13082 table 3 note 10), both batched into the FIFO
///   at that rate, FIFO in continuous mode. The timestamps are spaced at the chip's rate (208 Hz for a
///   200 Hz request), measured against the host clock by ``FIFOTimestamper``. With both sensors the two
///   fastest ODRs (3332 and 6667 Hz) are not offered: two 7-byte words per sample at those rates need
///   more than a 400 kHz bus carries.
/// - Accelerometer only (`sensors=accelerometer`): the gyroscope is powered down (ODR_G 0) and not batched
///   (BDR_GY 0), the LIS3MDL is left asleep, and every accelerometer word is a sample of its own, at any
///   ODR up to 6667 Hz. One 7-byte word per sample, about 9 bits a byte on the wire: 3332 Hz needs
///   ~210 kbit/s (a 400 kHz bus), 6667 Hz ~420 kbit/s (a 1 MHz Fast-mode Plus bus, which the chip
///   supports); a bus too slow for the rate shows as FIFO overruns, each reported.
/// - FIFO: 7-byte words, a tag (``LSM6DSOXFIFOTag``) and three little-endian 16-bit values, read in bursts
///   from FIFO_DATA_OUT_TAG (the address wraps from 0x7E back to 0x78). The gyroscope and accelerometer words
///   with the same TAG_CNT slot make one sample, in whichever order they come and even when a read ends
///   between them. An overrun (FIFO_OVR_IA: more than 512 words waiting) resets the FIFO (bypass, then
///   continuous) and is reported as ``IMUDeviceError/readFailed(_:)``; the next call goes on.
/// - Magnetometer: no FIFO, so after each FIFO read the driver reads STATUS_REG and the outputs of the
///   LIS3MDL (running at up to 80 Hz, see ``LIS3MDLMagnetometer``); a new value rides on the newest sample of
///   that read (or of the next read that has samples) and the samples in between carry `nil`: each field
///   value is delivered once, never repeated.
public final class LSM6DSOXDriver: I2CChipDriver {
    /// What the chip is: `lsm6dsox`, 6-axis or 9-axis, rates and full scales.
    public let info: IMUDeviceInfo
    /// The bus the chips are on.
    public let bus: any I2CBus
    /// What stamps the reads.
    private let time: DeviceTime
    /// The LSM6DSOX's 7-bit address.
    public let address: UInt8
    /// The accelerometer's full scale.
    public let accelerometerScale: LSM6DSOXAccelerometerScale
    /// The gyroscope's full scale.
    public let gyroscopeScale: LSM6DSOXGyroscopeScale
    /// LIS3MDL axes → LSM6DSOX axes.
    public let magnetometerAlignment: MountMatrix
    /// The LIS3MDL's address when one was found, else `nil`.
    public var magnetometerAddress: UInt8? { magnetometer?.address }
    /// The rate the chip was started at last; `nil` before the first `start`.
    public private(set) var outputDataRate: LSM6DSOXOutputDataRate?

    /// The rates ``start(sampleRate:accelerometerOnly:)`` accepts with both sensors, Hz: the chip's ODRs
    /// from 12.5 to 1666 Hz.
    public static let supportedSampleRates: ClosedRange<Double> = 12.5...1666
    /// The rates it accepts with the accelerometer alone, Hz: every ODR, 12.5 to 6667 Hz.
    public static let accelerometerOnlySampleRates: ClosedRange<Double> = 12.5...6667
    /// The rates with the accelerometer alone, ``accelerometerOnlySampleRates``.
    public var accelerometerOnlySampleRates: ClosedRange<Double>? { Self.accelerometerOnlySampleRates }
    /// Whether the current run reads the accelerometer alone.
    public private(set) var accelerometerOnly = false
    /// The rate used when none is asked for, Hz: an ODR of the chip, fast enough for attitude fusion.
    public static let defaultSampleRate = 208.0

    private let magnetometer: LIS3MDLMagnetometer?
    private var timestamper = FIFOTimestamper(sampleRate: defaultSampleRate)
    /// The gyroscope or accelerometer word of a slot whose partner has not been read yet.
    private var openSlot: (slot: UInt8, acceleration: SIMD3<Double>?, rotationRate: SIMD3<Double>?)?
    /// A magnetometer value read but not yet attached to a sample (LSM6DSOX axes, µT).
    private var pendingField: SIMD3<Double>?

    /// Largest words read in one transfer: 585 × 7 = 4095 bytes, inside the bus's 4096-byte limit.
    private static let wordsPerRead = 4096 / LSM6DSOXRegisterMap.fifoWordSize

    /// Recognises an LSM6DSOX at `address` and looks for a LIS3MDL beside it; configures nothing.
    /// - Parameters:
    ///   - bus: the bus.
    ///   - address: 0x6A or 0x6B.
    ///   - accelerometerScale: accelerometer full scale (default ±8 g).
    ///   - gyroscopeScale: gyroscope full scale (default ±2000 dps).
    ///   - magnetometerScale: LIS3MDL full scale (default ±4 gauss).
    ///   - magnetometerAlignment: LIS3MDL axes → LSM6DSOX axes (default identity).
    ///   - time: what stamps the reads (the monotonic clock on a board).
    /// - Returns: the driver, or `nil` when WHO_AM_I is not 0x6C.
    /// - Throws: ``IMUDeviceError/unavailable(_:)`` when nothing answers at `address`,
    ///   ``IMUDeviceError/readFailed(_:)`` when a transfer fails otherwise.
    public static func probe(
        bus: any I2CBus, address: UInt8, accelerometerScale: LSM6DSOXAccelerometerScale = .g8,
        gyroscopeScale: LSM6DSOXGyroscopeScale = .dps2000, magnetometerScale: LIS3MDLScale = .gauss4,
        magnetometerAlignment: MountMatrix = .identity, time: DeviceTime = .monotonic
    ) throws(IMUDeviceError) -> LSM6DSOXDriver? {
        let identity: UInt8
        do { identity = try bus.readRegister(address: address, LSM6DSOXRegisterMap.whoAmI) } catch {
            throw IMUDeviceError(error)
        }
        guard identity == LSM6DSOXRegisterMap.identity else { return nil }
        return LSM6DSOXDriver(
            bus: bus, address: address, accelerometerScale: accelerometerScale, gyroscopeScale: gyroscopeScale,
            magnetometer: try LIS3MDLMagnetometer.find(on: bus, scale: magnetometerScale),
            magnetometerAlignment: magnetometerAlignment, time: time)
    }

    private init(
        bus: any I2CBus, address: UInt8, accelerometerScale: LSM6DSOXAccelerometerScale,
        gyroscopeScale: LSM6DSOXGyroscopeScale, magnetometer: LIS3MDLMagnetometer?, magnetometerAlignment: MountMatrix,
        time: DeviceTime
    ) {
        self.time = time
        self.bus = bus
        self.address = address
        self.accelerometerScale = accelerometerScale
        self.gyroscopeScale = gyroscopeScale
        self.magnetometer = magnetometer
        self.magnetometerAlignment = magnetometerAlignment
        var chip = "ST LSM6DSOX at \(I2CBusError.hex(address))"
        if let magnetometer { chip += " with LIS3MDL at \(I2CBusError.hex(magnetometer.address))" }
        info = IMUDeviceInfo(
            driver: "lsm6dsox", chip: chip,
            sensors: magnetometer == nil ? [.accelerometer, .gyroscope] : .all,
            supportedSampleRates: Self.supportedSampleRates, defaultSampleRate: Self.defaultSampleRate,
            accelerometerRange: accelerometerScale.range, gyroscopeRange: gyroscopeScale.range,
            magnetometerRange: magnetometer?.scale.range)
    }

    /// The ODR nearest `sampleRate` among the mode's, and the accelerometer's bandwidth there: LPF1 at
    /// ODR/2 (LPF2 stays off).
    /// - Parameters:
    ///   - sampleRate: Hz.
    ///   - accelerometerOnly: whether the accelerometer alone is read (every ODR), else up to 1666 Hz.
    public func sampling(near sampleRate: Double, accelerometerOnly: Bool) -> I2CChipSampling {
        let rate = Self.outputDataRate(near: sampleRate, accelerometerOnly: accelerometerOnly)
        return I2CChipSampling(rate: rate.rate, accelerometerBandwidth: rate.rate / 2)
    }

    private static func outputDataRate(near sampleRate: Double, accelerometerOnly: Bool) -> LSM6DSOXOutputDataRate {
        let rates = accelerometerOnly ? accelerometerOnlySampleRates : supportedSampleRates
        return LSM6DSOXOutputDataRate.nearest(to: min(max(sampleRate, rates.lowerBound), rates.upperBound))
    }

    /// Resets and configures the LSM6DSOX (and the LIS3MDL) as described on the type and starts the FIFO.
    /// - Parameters:
    ///   - sampleRate: Hz; the chip runs at the nearest of the mode's ODRs.
    ///   - accelerometerOnly: the accelerometer alone, the gyroscope and the LIS3MDL asleep.
    /// - Throws: ``IMUDeviceError/unavailable(_:)`` when a chip does not answer,
    ///   ``IMUDeviceError/readFailed(_:)`` when a transfer fails or SW_RESET does not clear.
    public func start(sampleRate: Double, accelerometerOnly: Bool) throws(IMUDeviceError) {
        let rate = Self.outputDataRate(near: sampleRate, accelerometerOnly: accelerometerOnly)
        let resetDone: Bool
        do { resetDone = try configure(rate: rate, accelerometerOnly: accelerometerOnly) } catch { throw IMUDeviceError(error) }
        guard resetDone else {
            throw .readFailed("\(chipName): CTRL3_C (0x12) SW_RESET did not clear")
        }
        self.accelerometerOnly = accelerometerOnly
        if accelerometerOnly { magnetometer?.stop() } else { try magnetometer?.start(sampleRate: rate.rate) }
        outputDataRate = rate
        timestamper = FIFOTimestamper(sampleRate: rate.rate)
        openSlot = nil
        pendingField = nil
    }

    /// SW_RESET, then the configuration, FIFO last.
    /// - Returns: `false` when SW_RESET did not clear (nothing configured).
    private func configure(rate: LSM6DSOXOutputDataRate, accelerometerOnly: Bool) throws(I2CBusError) -> Bool {
        try write(LSM6DSOXRegisterMap.control3, LSM6DSOXRegisterMap.softwareReset)
        // The bit clears itself when the reset is done, within a few register reads' time.
        var resetDone = false
        for _ in 0..<10 where !resetDone {
            resetDone = try bus.readRegister(address: address, LSM6DSOXRegisterMap.control3)
                & LSM6DSOXRegisterMap.softwareReset == 0
        }
        guard resetDone else { return false }
        try write(LSM6DSOXRegisterMap.control3, LSM6DSOXRegisterMap.blockDataUpdate | LSM6DSOXRegisterMap.autoIncrement)
        try write(LSM6DSOXRegisterMap.accelerometerControl, rate.code << 4 | accelerometerScale.fieldValue)
        // FIFO_CTRL3: BDR_GY in the high nibble, BDR_XL in the low one; 0 leaves a sensor out.
        if accelerometerOnly {
            try write(LSM6DSOXRegisterMap.gyroscopeControl, gyroscopeScale.fieldValue)
            try write(LSM6DSOXRegisterMap.fifoControl3, rate.code)
        } else {
            try write(LSM6DSOXRegisterMap.gyroscopeControl, rate.code << 4 | gyroscopeScale.fieldValue)
            try write(LSM6DSOXRegisterMap.fifoControl3, rate.code << 4 | rate.code)
        }
        try restartFIFO()
        return true
    }

    /// Every sample measured since the previous call, oldest first, in SI units and the LSM6DSOX's axes.
    /// - Throws: ``IMUDeviceError/unavailable(_:)`` when a chip stopped answering;
    ///   ``IMUDeviceError/readFailed(_:)`` after a FIFO overrun or a misaligned word (the FIFO was reset) or a
    ///   failed transfer.
    public func readSamples() throws(IMUDeviceError) -> [IMUSample] {
        let readTime = time.now()
        let waiting: [UInt8]?
        do { waiting = try readFIFO() } catch { throw IMUDeviceError(error) }
        guard let bytes = waiting else {
            do { try discardFIFO() } catch { throw IMUDeviceError(error) }
            throw .readFailed(
                "FIFO overflow on the \(chipName): more than \(LSM6DSOXRegisterMap.fifoCapacity) words were waiting; "
                    + "the FIFO was reset and the samples in it dropped")
        }
        let measurements: [Measurement]
        switch pair(bytes) {
        case .success(let pairs):
            measurements = pairs
        case .failure(let misaligned):
            do { try discardFIFO() } catch { throw IMUDeviceError(error) }
            throw .readFailed(
                "\(chipName): FIFO word with tag \(I2CBusError.hex(misaligned.tag)) (TAG_SENSOR "
                    + "\(I2CBusError.hex(misaligned.tag >> 3)) is undefined); the FIFO was reset")
        }
        if let magnetometer, !accelerometerOnly {
            do {
                if let field = try magnetometer.readIfReady() { pendingField = magnetometerAlignment.apply(field) }
            } catch { throw IMUDeviceError(error) }
        }
        let times = timestamper.timestamps(count: measurements.count, readTime: readTime)
        var samples = zip(times, measurements).map { time, measurement in
            IMUSample(timestamp: time, acceleration: measurement.acceleration, rotationRate: measurement.rotationRate)
        }
        if !samples.isEmpty, let field = pendingField {
            samples[samples.count - 1].magneticField = field
            pendingField = nil
        }
        return samples
    }

    /// Powers both sensors down, empties the FIFO and powers the magnetometer down; errors are ignored.
    public func stop() {
        try? write(LSM6DSOXRegisterMap.accelerometerControl, 0)
        try? write(LSM6DSOXRegisterMap.gyroscopeControl, 0)
        try? write(LSM6DSOXRegisterMap.fifoControl4, LSM6DSOXRegisterMap.fifoModeBypass)
        magnetometer?.stop()
    }

    /// `LSM6DSOX at 0x6a on /dev/i2c-1`, for messages.
    private var chipName: String { "LSM6DSOX at \(I2CBusError.hex(address)) on \(bus.name)" }

    /// The words waiting in the FIFO, read in bursts of whole words; `nil` when FIFO_STATUS2 reports an overrun.
    private func readFIFO() throws(I2CBusError) -> [UInt8]? {
        let status = try bus.readRegisters(address: address, startingAt: LSM6DSOXRegisterMap.fifoStatus1, count: 2)
        guard status[1] & (LSM6DSOXRegisterMap.fifoOverrun | LSM6DSOXRegisterMap.fifoOverrunLatched) == 0 else {
            return nil
        }
        var remaining = Int(status[0]) | Int(status[1] & 0b11) << 8
        var bytes: [UInt8] = []
        bytes.reserveCapacity(remaining * LSM6DSOXRegisterMap.fifoWordSize)
        while remaining > 0 {
            let words = min(remaining, Self.wordsPerRead)
            bytes += try bus.readRegisters(
                address: address, startingAt: LSM6DSOXRegisterMap.fifoDataOutTag,
                count: words * LSM6DSOXRegisterMap.fifoWordSize)
            remaining -= words
        }
        return bytes
    }

    /// One gyroscope and accelerometer pair from the FIFO, m/s² and rad/s (no rotation rate with the
    /// accelerometer alone).
    private typealias Measurement = (acceleration: SIMD3<Double>, rotationRate: SIMD3<Double>?)

    /// A word whose tag the chip never writes.
    private struct MisalignedWord: Error {
        /// The tag byte read.
        let tag: UInt8
    }

    /// Pairs the gyroscope and accelerometer words of each slot into measurements in SI units, keeping an
    /// unpaired word of the last slot for the next read; other tags are skipped. With the accelerometer
    /// alone each accelerometer word is a measurement.
    private func pair(_ bytes: [UInt8]) -> Result<[Measurement], MisalignedWord> {
        var measurements: [Measurement] = []
        for start in stride(from: 0, to: bytes.count, by: LSM6DSOXRegisterMap.fifoWordSize) {
            let tag = LSM6DSOXFIFOTag(bytes[start])
            guard let sensor = tag.sensor else { return .failure(MisalignedWord(tag: bytes[start])) }
            func value(_ sensitivity: Double) -> SIMD3<Double> {
                func axis(_ offset: Int) -> Double {
                    let low = UInt16(bytes[start + offset]), high = UInt16(bytes[start + offset + 1])
                    return Double(Int16(bitPattern: low | high << 8)) * sensitivity
                }
                return SIMD3(axis(1), axis(3), axis(5))
            }
            if case .other = sensor { continue }
            if accelerometerOnly {
                if sensor == .accelerometer { measurements.append((value(accelerometerScale.sensitivity), nil)) }
                continue
            }
            // A slot whose partner never came (the FIFO was reset between them) is dropped.
            if openSlot?.slot != tag.slot { openSlot = (tag.slot, nil, nil) }
            if sensor == .gyroscope {
                openSlot?.rotationRate = value(gyroscopeScale.sensitivity)
            } else {
                openSlot?.acceleration = value(accelerometerScale.sensitivity)
            }
            if let slot = openSlot, let acceleration = slot.acceleration, let rotationRate = slot.rotationRate {
                measurements.append((acceleration, rotationRate))
                openSlot = nil
            }
        }
        return .success(measurements)
    }

    /// Empties the FIFO and starts it again, forgetting the timing and any half-read slot.
    private func discardFIFO() throws(I2CBusError) {
        try restartFIFO()
        timestamper.reset()
        openSlot = nil
    }

    /// FIFO_CTRL4: bypass (which empties the FIFO and clears its flags), then continuous.
    private func restartFIFO() throws(I2CBusError) {
        try write(LSM6DSOXRegisterMap.fifoControl4, LSM6DSOXRegisterMap.fifoModeBypass)
        try write(LSM6DSOXRegisterMap.fifoControl4, LSM6DSOXRegisterMap.fifoModeContinuous)
    }

    private func write(_ register: UInt8, _ value: UInt8) throws(I2CBusError) {
        try bus.writeRegister(address: address, register, value)
    }
}
