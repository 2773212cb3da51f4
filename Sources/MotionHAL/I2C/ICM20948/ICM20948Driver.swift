/// The TDK InvenSense ICM-20948 (accelerometer, gyroscope) with its AK09916 magnetometer: a 9-axis IMU at
/// 0x68 (AD0 low) or 0x69 (AD0 high). Register map: ``ICM20948RegisterMap``; rates and filters:
/// ``ICM20948Configuration``.
///
/// - Banks: the chip's registers sit in four user banks; the driver remembers the bank it last selected and
///   writes REG_BANK_SEL only to change it (after DEVICE_RESET the chip is in bank 0).
/// - Accelerometer and gyroscope go through the 512-byte FIFO, 12-byte frames, read in one burst of FIFO_R_W
///   per poll and timestamped by a ``FIFOTimestamper`` at the rate the divider gives. An overflow
///   (INT_STATUS_2) resets the FIFO and is reported as ``IMUDeviceError/readFailed(_:)``.
/// - Accelerometer only (`sensors=accelerometer`): the gyroscope off (PWR_MGMT_2), the magnetometer not
///   started, 6-byte accelerometer frames; above 2250 Hz the accelerometer's filter is bypassed
///   (ACCEL_FCHOICE 0: 4500 Hz, 1209 Hz bandwidth), which gives the 512-byte FIFO 19 ms, about twice the
///   poll interval.
/// - The magnetometer is read directly through the bypass, once per poll before the FIFO. Its newest
///   measurement rides on the newest sample of the first batch read after it; the other samples carry
///   `nil` (it measures at 100 Hz, so roughly every second sample at 225 Hz has a field).
final class ICM20948Driver: I2CChipDriver {
    let info: IMUDeviceInfo

    private typealias Map = ICM20948RegisterMap

    private let bus: any I2CBus
    private let address: UInt8
    private let configuration: ICM20948Configuration
    private let magnetometer: AK09916Magnetometer
    /// What stamps the reads and times the waits.
    private let time: DeviceTime
    /// The bank REG_BANK_SEL selects (0 after the probe), `nil` when unknown after a failed selection.
    private var selectedBank: UInt8?
    private var timestamper = FIFOTimestamper(sampleRate: ICM20948Configuration.baseSampleRate)
    /// A magnetometer measurement waiting for the next FIFO sample, µT.
    private var pendingField: SIMD3<Double>?
    /// Whether the current run reads the accelerometer alone.
    private var accelerometerOnly = false

    /// The rates with the accelerometer alone (``ICM20948Configuration/accelerometerOnlySampleRates``).
    var accelerometerOnlySampleRates: ClosedRange<Double>? { ICM20948Configuration.accelerometerOnlySampleRates }

    /// The rate the driver runs at when asked for none, Hz: divider 4.
    static let defaultSampleRate = 225.0
    /// Longest wait for DEVICE_RESET to clear, s.
    static let resetTimeout = 0.1

    private init(bus: any I2CBus, address: UInt8, configuration: ICM20948Configuration, selectedBank: UInt8, time: DeviceTime) {
        self.time = time
        self.bus = bus
        self.address = address
        self.configuration = configuration
        self.selectedBank = selectedBank
        magnetometer = AK09916Magnetometer(bus: bus, time: time)
        info = IMUDeviceInfo(
            driver: "icm20948",
            chip: "TDK InvenSense ICM-20948 with AK09916 magnetometer at \(I2CBusError.hex(address)) on \(bus.name)",
            sensors: .all, supportedSampleRates: ICM20948Configuration.supportedSampleRates,
            defaultSampleRate: Self.defaultSampleRate,
            accelerometerRange: configuration.accelerometerRange.fullScale,
            gyroscopeRange: configuration.gyroscopeRange.fullScale,
            magnetometerRange: AK09916Magnetometer.measurementRange)
    }

    /// Recognises an ICM-20948 at `address` without changing its configuration: REG_BANK_SEL must have its
    /// reserved bits clear (otherwise it is some other chip and nothing is written), then bank 0 is selected
    /// if it is not already and WHO_AM_I must read 0xEA.
    /// - Returns: the driver, or `nil` for another chip.
    /// - Throws: ``IMUDeviceError/unavailable(_:)`` when nothing answers at the address.
    static func probe(
        bus: any I2CBus, address: UInt8, configuration: ICM20948Configuration, time: DeviceTime
    ) throws(IMUDeviceError) -> ICM20948Driver? {
        do {
            let bankSelect = try bus.readRegister(address: address, Map.bankSelectAddress)
            guard bankSelect & Map.bankSelectReservedBits == 0 else { return nil }
            if bankSelect != 0 { try bus.writeRegister(address: address, Map.bankSelectAddress, 0) }
            guard try bus.readRegister(address: address, Map.whoAmI.address) == Map.whoAmIValue else { return nil }
        } catch {
            throw IMUDeviceError(error)
        }
        return ICM20948Driver(bus: bus, address: address, configuration: configuration, selectedBank: 0, time: time)
    }

    /// The rate and accelerometer bandwidth for a request
    /// (``ICM20948Configuration/accelerometerSampling(near:accelerometerOnly:)``).
    func sampling(near sampleRate: Double, accelerometerOnly: Bool) -> I2CChipSampling {
        ICM20948Configuration.accelerometerSampling(near: sampleRate, accelerometerOnly: accelerometerOnly)
    }

    func start(sampleRate: Double, accelerometerOnly: Bool) throws(IMUDeviceError) {
        let rate = sampling(near: sampleRate, accelerometerOnly: accelerometerOnly).rate
        let divider = ICM20948Configuration.sampleRateDivider(for: min(rate, ICM20948Configuration.baseSampleRate))
        self.accelerometerOnly = accelerometerOnly

        try write(Map.powerManagement1, [Map.deviceReset])
        selectedBank = 0  // DEVICE_RESET also returns REG_BANK_SEL to bank 0
        try waitForReset()
        try write(Map.powerManagement1, [Map.clockAuto])  // awake, best clock
        // Every axis on, or the accelerometer's alone.
        try write(Map.powerManagement2, [accelerometerOnly ? Map.gyroscopeOff : 0])

        // Bank 2: the same divider for both sensors, filters for the rate, full scales. FCHOICE = 1 enables
        // the filters and with them the dividers.
        let gyroscopeSetting = [UInt8(divider), configuration.gyroscopeConfiguration1(rate: rate)]
        let accelerometerDivider = [UInt8(divider >> 8), UInt8(divider & 0xFF)]
        let accelerometerSetting = [configuration.accelerometerConfiguration(rate: rate)]
        try write(Map.gyroscopeSampleRateDivider, gyroscopeSetting)
        try write(Map.accelerometerSampleRateDivider1, accelerometerDivider)
        try write(Map.accelerometerConfiguration, accelerometerSetting)
        try verify(Map.gyroscopeSampleRateDivider, gyroscopeSetting)
        try verify(Map.accelerometerSampleRateDivider1, accelerometerDivider)
        try verify(Map.accelerometerConfiguration, accelerometerSetting)

        // Bank 0: the bypass to the magnetometer (the I²C master stays off, as the reset left it).
        if !accelerometerOnly {
            try write(Map.interruptPinConfiguration, [Map.bypassEnable])
            try magnetometer.start()
        }

        // FIFO: accelerometer (and gyroscope) frames, held in reset while stream mode is set, then released
        // and enabled, so nothing measured before now is read.
        let selection = accelerometerOnly ? Map.fifoAccelerometer : Map.fifoAccelerometerAndGyroscope
        try write(Map.fifoEnable2, [selection, Map.fifoResetAll, 0])
        try write(Map.fifoReset, [0])
        try write(Map.userControl, [Map.userControlFIFOEnable])
        _ = try read(Map.interruptStatus2)  // clears an overflow flag left from before
        timestamper = FIFOTimestamper(sampleRate: rate)
        pendingField = nil
    }

    func readSamples() throws(IMUDeviceError) -> [IMUSample] {
        if !accelerometerOnly, let field = try magnetometer.read() { pendingField = field }
        let frameSize = accelerometerOnly ? Map.accelerometerFrameSize : Map.fifoFrameSize

        let readTime = time.now()
        let countBytes = try read(Map.fifoCountHigh, count: 2)
        let count = Int(countBytes[0] & Map.fifoCountHighMask) << 8 | Int(countBytes[1])
        // A burst is at most 4096 bytes; a real count never comes near (the FIFO holds 512).
        let frames = min(count, 4096) / frameSize
        let data = frames > 0 ? try read(Map.fifoReadWrite, count: frames * frameSize) : []

        // Read after the data: an overflow while the data was read makes it unusable too (in stream mode a
        // full FIFO drops its oldest bytes, so the frames no longer start where they should).
        let status = try read(Map.interruptStatus2)[0]
        guard status & Map.fifoOverflowBits == 0 else {
            try write(Map.fifoReset, [Map.fifoResetAll])
            try write(Map.fifoReset, [0])
            timestamper.reset()
            throw .readFailed(
                "FIFO overflow: the ICM-20948's \(Map.fifoCapacity)-byte FIFO filled up before it was read "
                    + "(INT_STATUS_2 \(I2CBusError.hex(status))); the \(count) bytes in it were discarded and the FIFO reset")
        }
        guard frames > 0 else { return [] }

        let timestamps = timestamper.timestamps(count: frames, readTime: readTime)
        var samples = (0..<frames).map { frame in
            sample(from: data, at: frame * frameSize, timestamp: timestamps[frame])
        }
        if let field = pendingField {
            samples[frames - 1].magneticField = field
            pendingField = nil
        }
        return samples
    }

    func stop() {
        magnetometer.stop()
        try? write(Map.powerManagement1, [Map.sleep | Map.clockAuto])
    }

    /// One FIFO frame: accelerometer then (unless it is read alone) gyroscope, x, y, z each, big-endian int16.
    private func sample(from data: [UInt8], at offset: Int, timestamp: UInt64) -> IMUSample {
        func axes(_ start: Int) -> SIMD3<Double> {
            func count(_ index: Int) -> Double {
                Double(Int16(bitPattern: UInt16(data[index]) << 8 | UInt16(data[index + 1])))
            }
            return SIMD3(count(start), count(start + 2), count(start + 4))
        }
        return IMUSample(
            timestamp: timestamp,
            acceleration: axes(offset) * configuration.accelerometerRange.resolution,
            rotationRate: accelerometerOnly ? nil : axes(offset + 6) * configuration.gyroscopeRange.resolution)
    }

    /// Waits until DEVICE_RESET has cleared itself (the chip may not answer while it resets).
    private func waitForReset() throws(IMUDeviceError) {
        let deadline = time.now() + UInt64(Self.resetTimeout * 1e9)
        var failure: IMUDeviceError
        repeat {
            time.sleep(seconds: 0.001)
            do {
                let value = try read(Map.powerManagement1)[0]
                if value & Map.deviceReset == 0 { return }
                failure = .readFailed(
                    "\(Map.powerManagement1) still reads \(I2CBusError.hex(value)) \(Int(Self.resetTimeout * 1000)) ms "
                        + "after DEVICE_RESET; the reset did not finish")
            } catch {
                failure = error
            }
        } while time.now() < deadline
        throw failure
    }

    /// Reads back what was written and fails when the chip holds something else.
    private func verify(_ register: Map.Register, _ expected: [UInt8]) throws(IMUDeviceError) {
        let actual = try read(register, count: expected.count)
        guard actual == expected else {
            throw .readFailed(
                "\(register) reads \(actual.map(I2CBusError.hex)) after \(expected.map(I2CBusError.hex)) was written")
        }
    }

    private func read(_ register: Map.Register, count: Int = 1) throws(IMUDeviceError) -> [UInt8] {
        do {
            try select(bank: register.bank)
            return try bus.readRegisters(address: address, startingAt: register.address, count: count)
        } catch {
            throw IMUDeviceError(error)
        }
    }

    /// Writes `bytes` from `register` on (the chip increments the address within the bank).
    private func write(_ register: Map.Register, _ bytes: [UInt8]) throws(IMUDeviceError) {
        do {
            try select(bank: register.bank)
            try bus.writeRegisters(address: address, startingAt: register.address, bytes: bytes)
        } catch {
            throw IMUDeviceError(error)
        }
    }

    private func select(bank: UInt8) throws(I2CBusError) {
        guard bank != selectedBank else { return }
        selectedBank = nil
        try bus.writeRegister(address: address, Map.bankSelectAddress, bank << Map.bankSelectShift)
        selectedBank = bank
    }
}
