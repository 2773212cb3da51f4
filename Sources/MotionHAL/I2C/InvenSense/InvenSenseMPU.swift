/// The driver for the InvenSense MPU-6050, MPU-6500, MPU-9250 and MPU-9255: one register protocol, the
/// differences between the parts in ``InvenSenseVariant`` (the Linux `inv_mpu6050` driver's design).
///
/// - Start: DEVICE_RESET (until the bit clears itself, at most 100 ms), the PLL clock, the full-scale
///   ranges, the digital low-pass filter widest below the Nyquist frequency (``InvenSenseLowPassFilter``),
///   the output data rate 1 kHz / (1 + SMPLRT_DIV) with the divider nearest the request, the FIFO filled
///   with accelerometer and gyroscope frames (12 bytes, big-endian int16, ACCEL_X...Z then GYRO_X...Z), and
///   on the MPU-9250 its AK8963 magnetometer through bypass mode (``AK8963Magnetometer``). The FIFO starts
///   once the gyroscope's start-up time has passed, so no unsettled sample is delivered.
/// - Reading: INT_STATUS and FIFO_COUNT, then whole frames from FIFO_R_W in one burst, timestamped by a
///   ``FIFOTimestamper`` running at the chip's actual rate. An overflow (INT_STATUS FIFO_OFLOW, or no room
///   left for a frame: the MPU-6050 then overwrites its oldest bytes and the frames lose their alignment)
///   resets the FIFO and is reported as ``IMUDeviceError/readFailed(_:)``.
/// - Magnetometer: read before the FIFO at every poll; a new measurement (100 Hz) rides on the newest
///   sample of the first non-empty burst read after it, the samples in between carry `nil` (nothing is
///   repeated, so each value is used once). An overflowing measurement (ST2 HOFL) is dropped; the first of
///   an episode is reported as ``IMUDeviceError/readFailed(_:)`` without touching the FIFO, whose samples
///   the next read takes.
/// - Accelerometer only (`sensors=accelerometer`): the FIFO takes accelerometer frames alone (FIFO_EN
///   ACCEL_FIFO_EN, 6 bytes), at the same rates and with the same filter (1 kHz divided by SMPLRT_DIV; the
///   MPU-6500 family's unfiltered 4 kHz accelerometer, ACCEL_FCHOICE_B, is not offered); the gyroscope keeps running as the PLL's reference
///   and the MPU-9250's magnetometer stays off. Half the bytes per sample: the FIFO lasts twice as long.
/// - Values in SI units and the accelerometer/gyroscope chip axes (the magnetometer's mapped into them).
public final class InvenSenseMPU: I2CChipDriver {
    /// Driver `mpu6050` (and so on), the chip, its sensors, the rates 4...1000 Hz and the full scales.
    public let info: IMUDeviceInfo
    /// Which part this is.
    public let variant: InvenSenseVariant
    /// The bus the chip is on.
    public let bus: any I2CBus
    /// The chip's 7-bit address (0x68 or 0x69).
    public let address: UInt8
    /// The accelerometer's configured full scale.
    public let accelerometerRange: InvenSenseAccelerometerRange
    /// The gyroscope's configured full scale.
    public let gyroscopeRange: InvenSenseGyroscopeRange
    /// The output data rate of the current run, Hz: 1 kHz / (1 + SMPLRT_DIV); `nil` before `start`.
    public private(set) var outputDataRate: Double?

    /// The rate SMPLRT_DIV divides while the low-pass filter is on, Hz (RM-MPU-6000A section 4.2).
    public static let internalSampleRate = 1000.0
    /// The rates the driver runs at, Hz: SMPLRT_DIV 249 ... 0.
    public static let supportedSampleRates = 4.0...1000.0
    /// The rate when none is asked for, Hz (SMPLRT_DIV 4).
    public static let defaultSampleRate = 200.0
    /// The longest a DEVICE_RESET may take, s: the register start-up time (PS-MPU-6000A electrical
    /// characteristics; Linux waits this long, `INV_MPU6050_POWER_UP_TIME`).
    static let resetTime = 0.1
    /// How often the driver looks whether the reset is done, s.
    static let resetPollInterval = 0.001
    /// Bytes per FIFO frame: accelerometer and gyroscope, three int16 each.
    static let frameSize = 12
    /// Bytes per FIFO frame with the accelerometer alone.
    static let accelerometerFrameSize = 6
    /// The rates with the accelerometer alone, Hz: the same as with both sensors.
    public var accelerometerOnlySampleRates: ClosedRange<Double>? { Self.supportedSampleRates }
    /// Whether the current run reads the accelerometer alone.
    public private(set) var accelerometerOnly = false

    private var timestamper: FIFOTimestamper?
    private var magnetometer: AK8963Magnetometer?
    /// The last magnetometer measurement not yet attached to a sample, µT in chip axes.
    private var pendingMagneticField: SIMD3<Double>?
    /// Whether the last magnetometer measurement overflowed (an episode already reported).
    private let time: DeviceTime
    private var magnetometerOverflowing = false

    /// A driver for the chip at `address`, not yet configured
    /// (``probe(bus:address:variant:accelerometerRange:gyroscopeRange:)`` checks the identity first).
    /// - Parameters:
    ///   - bus: the chip's bus.
    ///   - address: its 7-bit address.
    ///   - variant: which part it is.
    ///   - accelerometerRange: full scale to configure (default ±8 g).
    ///   - gyroscopeRange: full scale to configure (default ±2000 °/s).
    ///   - time: what stamps the reads and times the waits (the monotonic clock on a board).
    public init(
        bus: any I2CBus, address: UInt8, variant: InvenSenseVariant,
        accelerometerRange: InvenSenseAccelerometerRange = .g8, gyroscopeRange: InvenSenseGyroscopeRange = .dps2000,
        time: DeviceTime = .monotonic
    ) {
        self.time = time
        self.bus = bus
        self.address = address
        self.variant = variant
        self.accelerometerRange = accelerometerRange
        self.gyroscopeRange = gyroscopeRange
        let accelerometerG = Int(2 << accelerometerRange.rawValue)
        let gyroscopeDegrees = Int(250 << gyroscopeRange.rawValue)
        info = IMUDeviceInfo(
            driver: variant.name,
            chip: "\(variant.chip)\(variant.hasMagnetometer ? " with AK8963 magnetometer" : "") "
                + "(±\(accelerometerG) g, ±\(gyroscopeDegrees) °/s)",
            sensors: variant.hasMagnetometer ? .all : [.accelerometer, .gyroscope],
            supportedSampleRates: Self.supportedSampleRates, defaultSampleRate: Self.defaultSampleRate,
            accelerometerRange: accelerometerRange.fullScale, gyroscopeRange: gyroscopeRange.fullScale,
            magnetometerRange: variant.hasMagnetometer ? AK8963Magnetometer.fullScale : nil)
    }

    /// Reads WHO_AM_I (0x75) and makes a driver when it is `variant`'s.
    /// - Parameters:
    ///   - bus: the bus.
    ///   - address: the 7-bit address to look at.
    ///   - variant: the part to recognise.
    ///   - accelerometerRange: full scale the driver will configure.
    ///   - gyroscopeRange: full scale the driver will configure.
    ///   - time: the driver's time.
    /// - Returns: the driver, or `nil` when WHO_AM_I reads another value.
    /// - Throws: ``IMUDeviceError/unavailable(_:)`` when nothing answers at `address`.
    public static func probe(
        bus: any I2CBus, address: UInt8, variant: InvenSenseVariant,
        accelerometerRange: InvenSenseAccelerometerRange = .g8, gyroscopeRange: InvenSenseGyroscopeRange = .dps2000,
        time: DeviceTime = .monotonic
    ) throws(IMUDeviceError) -> InvenSenseMPU? {
        let identity = try InvenSenseBusAccess.transfer { () throws(I2CBusError) in
            try bus.readRegister(address: address, InvenSenseRegister.whoAmI)
        }
        guard identity == variant.whoAmI else { return nil }
        return InvenSenseMPU(
            bus: bus, address: address, variant: variant, accelerometerRange: accelerometerRange,
            gyroscopeRange: gyroscopeRange, time: time)
    }

    /// The SMPLRT_DIV value whose rate, 1 kHz / (1 + divider), is nearest to `sampleRate`.
    /// - Parameter sampleRate: Hz, within ``supportedSampleRates``.
    public static func sampleRateDivider(for sampleRate: Double) -> UInt8 {
        let exact = min(max(internalSampleRate / sampleRate - 1, 0), 255)
        let (faster, slower) = (exact.rounded(.down), exact.rounded(.up))
        let fasterIsNearer = abs(rate(divider: faster) - sampleRate) <= abs(rate(divider: slower) - sampleRate)
        return UInt8(fasterIsNearer ? faster : slower)
    }

    private static func rate(divider: Double) -> Double { internalSampleRate / (1 + divider) }

    /// The rate of the divider nearest `sampleRate` and the accelerometer bandwidth of the filter chosen
    /// for it (``InvenSenseLowPassFilter/widest(for:from:)``); the same in both modes.
    /// - Parameters:
    ///   - sampleRate: Hz.
    ///   - accelerometerOnly: whether the accelerometer alone is read (no difference here).
    public func sampling(near sampleRate: Double, accelerometerOnly: Bool) -> I2CChipSampling {
        let rate = Self.rate(divider: Double(Self.sampleRateDivider(for: sampleRate)))
        let filter = InvenSenseLowPassFilter.widest(for: rate, from: variant.lowPassFilters)
        return I2CChipSampling(rate: rate, accelerometerBandwidth: filter.accelerometerBandwidth)
    }

    /// Resets and configures the chip as described on the type and starts its FIFO.
    /// - Parameters:
    ///   - sampleRate: Hz, within ``supportedSampleRates``.
    ///   - accelerometerOnly: accelerometer frames alone in the FIFO, the magnetometer off.
    /// - Throws: ``IMUDeviceError/unsupportedSampleRate(_:)`` outside the rates,
    ///   ``IMUDeviceError/unavailable(_:)`` or ``IMUDeviceError/readFailed(_:)`` for the bus and the reset.
    public func start(sampleRate: Double, accelerometerOnly: Bool) throws(IMUDeviceError) {
        guard Self.supportedSampleRates.contains(sampleRate) else { throw .unsupportedSampleRate(sampleRate) }
        let divider = Self.sampleRateDivider(for: sampleRate)
        let rate = Self.rate(divider: Double(divider))
        let filter = InvenSenseLowPassFilter.widest(for: rate, from: variant.lowPassFilters)
        self.accelerometerOnly = accelerometerOnly
        typealias R = InvenSenseRegister

        outputDataRate = nil
        timestamper = nil
        magnetometer = nil
        pendingMagneticField = nil
        magnetometerOverflowing = false
        // Linux inv_mpu_core.c, inv_check_and_setup_chip: reset, wait, wake on the PLL.
        try write(R.powerManagement1, R.deviceReset)
        try waitForReset()
        try write(R.powerManagement1, R.clockPLL)
        let awake = time.now()
        try write(R.gyroscopeConfiguration, gyroscopeRange.rawValue << R.fullScaleShift)
        try write(R.accelerometerConfiguration, accelerometerRange.rawValue << R.fullScaleShift)
        try write(R.configuration, filter.configuration)
        if variant.hasAccelerometerLowPassRegister { try write(R.accelerometerConfiguration2, filter.configuration) }
        try write(R.sampleRateDivider, divider)
        try write(R.interruptEnable, R.fifoOverflow)
        if variant.hasMagnetometer, !accelerometerOnly {
            try write(R.interruptPinConfiguration, R.bypassEnable)
            var magnetometer = AK8963Magnetometer(bus: bus, time: time)
            try magnetometer.start()
            self.magnetometer = magnetometer
        }
        // Samples from a gyroscope still starting up are not valid: let it settle before the FIFO fills.
        let sinceWaking = Double(time.now() - awake) / 1e9
        time.sleep(seconds: max(variant.gyroscopeStartupTime - sinceWaking, 0))
        try write(R.fifoEnable, accelerometerOnly ? R.fifoAccelerometer : R.fifoAccelerometerAndGyroscope)
        try resetFIFO()
        outputDataRate = rate
        timestamper = FIFOTimestamper(sampleRate: rate)
    }

    public func readSamples() throws(IMUDeviceError) -> [IMUSample] {
        typealias R = InvenSenseRegister
        guard var timestamper else {
            throw .readFailed("the \(variant.chip) driver was asked for samples before start")
        }
        try readMagnetometer()
        let status = try read(R.interruptStatus, count: 1)[0]
        let readTime = time.now()
        let countBytes = try read(R.fifoCount, count: 2)
        let count = Int(countBytes[0] & 0x1F) << 8 | Int(countBytes[1])
        let frameSize = accelerometerOnly ? Self.accelerometerFrameSize : Self.frameSize
        if status & R.fifoOverflow != 0 || count + frameSize > variant.fifoCapacity {
            try resetFIFO()
            throw .readFailed(
                "FIFO overflow on the \(variant.chip) at \(I2CBusError.hex(address)) on \(bus.name) "
                    + "(FIFO_COUNT \(count) of \(variant.fifoCapacity) bytes): samples lost, FIFO reset")
        }
        let frames = count / frameSize
        guard frames > 0 else { return [] }
        let bytes = try read(R.fifoData, count: frames * frameSize)
        let times = timestamper.timestamps(count: frames, readTime: readTime)
        self.timestamper = timestamper
        var samples = (0..<frames).map { frame in
            let offset = frame * frameSize
            func value(_ index: Int) -> Double {
                let high = UInt16(bytes[offset + 2 * index]), low = UInt16(bytes[offset + 2 * index + 1])
                return Double(Int16(bitPattern: high << 8 | low))
            }
            return IMUSample(
                timestamp: times[frame],
                acceleration: SIMD3(value(0), value(1), value(2)) * accelerometerRange.scale,
                rotationRate: accelerometerOnly ? nil : SIMD3(value(3), value(4), value(5)) * gyroscopeRange.scale)
        }
        samples[frames - 1].magneticField = pendingMagneticField
        pendingMagneticField = nil
        return samples
    }

    public func stop() {
        magnetometer?.stop()
        magnetometer = nil
        timestamper = nil
        outputDataRate = nil
        try? bus.writeRegister(address: address, InvenSenseRegister.powerManagement1, InvenSenseRegister.sleep)
    }

    /// Waits until DEVICE_RESET has cleared itself, which it does when the reset is done (RM-MPU-6000A
    /// section 4.28), polling every millisecond for at most ``resetTime``.
    /// - Throws: ``IMUDeviceError/readFailed(_:)`` when the bit is still set after ``resetTime``.
    private func waitForReset() throws(IMUDeviceError) {
        let deadline = time.now() + UInt64(Self.resetTime * 1e9)
        repeat {
            time.sleep(seconds: Self.resetPollInterval)
            let powerManagement = try read(InvenSenseRegister.powerManagement1, count: 1)[0]
            if powerManagement & InvenSenseRegister.deviceReset == 0 { return }
        } while time.now() < deadline
        throw .readFailed(
            "the \(variant.chip) at \(I2CBusError.hex(address)) on \(bus.name) still reports PWR_MGMT_1 DEVICE_RESET "
                + "\(Int(Self.resetTime * 1000)) ms after the reset")
    }

    /// Takes a new magnetometer measurement into ``pendingMagneticField``; reports the first overflow of an
    /// episode.
    private func readMagnetometer() throws(IMUDeviceError) {
        guard let magnetometer, let reading = try magnetometer.read() else { return }
        switch reading {
        case .field(let field):
            pendingMagneticField = field
            magnetometerOverflowing = false
        case .overflow:
            defer { magnetometerOverflowing = true }
            guard !magnetometerOverflowing else { return }
            throw .readFailed(
                "AK8963 magnetometer overflow (ST2 HOFL: field beyond ±\(Int(AK8963Magnetometer.fullScale)) µT), "
                    + "measurement dropped")
        }
    }

    /// Empties the FIFO and starts filling it again: FIFO off (FIFO_RESET works only then), reset, a read
    /// of INT_STATUS to clear an overflow flag, FIFO on (Linux inv_mpu_ring.c, `inv_reset_fifo`).
    private func resetFIFO() throws(IMUDeviceError) {
        typealias R = InvenSenseRegister
        try write(R.userControl, 0)
        try write(R.userControl, R.fifoReset)
        _ = try read(R.interruptStatus, count: 1)
        try write(R.userControl, R.userFIFOEnable)
        timestamper?.reset()
    }

    private func write(_ register: UInt8, _ value: UInt8) throws(IMUDeviceError) {
        try InvenSenseBusAccess.transfer { () throws(I2CBusError) in
            try bus.writeRegister(address: address, register, value)
        }
    }

    private func read(_ register: UInt8, count: Int) throws(IMUDeviceError) -> [UInt8] {
        try InvenSenseBusAccess.transfer { () throws(I2CBusError) in
            try bus.readRegisters(address: address, startingAt: register, count: count)
        }
    }
}
