/// The AKM AK09916 magnetometer inside the ICM-20948, read directly at 0x0C while the ICM-20948's bypass
/// (INT_PIN_CFG BYPASS_EN, I²C master off) connects its auxiliary bus to the host's.
///
/// Registers from the AK09916 datasheet (cross-checked with SparkFun's `AK09916_REGISTERS.h`): WIA1/WIA2
/// identify it, CNTL3 soft-resets it, CNTL2 picks continuous measurement at 100 Hz, and each read takes
/// ST1 (DRDY, DOR), HXL...HZH (little-endian int16, 0.15 µT per count) and ST2 in one burst; reading ST2
/// tells the chip the read is over so it may update the data registers again.
///
/// Axes: the AK09916 die's x is the accelerometer's x, its y and z point the other way, so a reading
/// (x, y, z) is (x, −y, −z) in the accelerometer and gyroscope axes. Sources: the orientation-of-axes figures
/// of the ICM-20948 datasheet DS-000189 (accelerometer/gyroscope and compass drawn side by side), and
/// InvenSense's own ICM-20948 driver (eMD, `Icm20948AuxCompassAkm.c`, `inv_icm20948_register_aux_compass`),
/// whose compass mounting matrix for the AK09916 is diag(1, −1, −1).
final class AK09916Magnetometer {
    /// The AK09916's fixed 7-bit address.
    static let address: UInt8 = 0x0C
    /// WIA1, WIA2: company and device identity.
    static let identityRegister: UInt8 = 0x00
    /// What WIA1 and WIA2 read: AKM (0x48), AK09916 (0x09).
    static let identity: [UInt8] = [0x48, 0x09]
    /// ST1: bit 0 DRDY (data ready), bit 1 DOR (a measurement was skipped).
    static let status1Register: UInt8 = 0x10
    /// ST1..ST2: status 1, six data bytes, a dummy byte (0x17) and status 2.
    static let measurementLength = 9
    /// CNTL2: operating mode.
    static let control2Register: UInt8 = 0x31
    /// CNTL3: bit 0 SRST, soft reset.
    static let control3Register: UInt8 = 0x32
    /// ST1 DRDY.
    static let dataReady: UInt8 = 0x01
    /// ST2 HOFL: |X| + |Y| + |Z| reached 4912 µT, the reading is not a measurement.
    static let sensorOverflow: UInt8 = 0x08
    /// CNTL2 continuous measurement mode 4, 100 Hz.
    static let continuous100Hz: UInt8 = 0x08
    /// CNTL2 power-down mode.
    static let powerDown: UInt8 = 0x00
    /// CNTL3 SRST.
    static let softReset: UInt8 = 0x01
    /// One count, µT.
    static let resolution = 0.15
    /// The measurement range, µT: the sum of the axes' magnitudes that sets HOFL.
    static let measurementRange = 4912.0

    private let bus: any I2CBus
    private let time: DeviceTime
    /// Whether the last measurement read had overflowed: an overflow is reported once per episode.
    private var overflowing = false

    /// Creates the magnetometer on `bus` (the ICM-20948's bypass must be open before it is used), waiting
    /// on `time`.
    init(bus: any I2CBus, time: DeviceTime) {
        self.bus = bus
        self.time = time
    }

    /// Checks the identity, soft-resets the magnetometer and starts continuous measurement at 100 Hz.
    /// - Throws: ``IMUDeviceError/unavailable(_:)`` when it does not answer behind the bypass,
    ///   ``IMUDeviceError/readFailed(_:)`` when it is not an AK09916.
    func start() throws(IMUDeviceError) {
        let identity = try transfer { () throws(I2CBusError) in
            try bus.readRegisters(address: Self.address, startingAt: Self.identityRegister, count: 2)
        }
        guard identity == Self.identity else {
            throw .readFailed(
                "the ICM-20948's magnetometer at \(I2CBusError.hex(Self.address)) reads WIA1/WIA2 "
                    + "\(identity.map(I2CBusError.hex)) instead of the AK09916's [0x48, 0x09]")
        }
        try transfer { () throws(I2CBusError) in
            try bus.writeRegister(address: Self.address, Self.control3Register, Self.softReset)
        }
        // The soft reset leaves it in power-down, from which a mode may be entered 100 µs later.
        time.sleep(seconds: 0.001)
        try transfer { () throws(I2CBusError) in
            try bus.writeRegister(address: Self.address, Self.control2Register, Self.continuous100Hz)
        }
        overflowing = false
    }

    /// The newest measurement in the accelerometer's axes, µT, or `nil` when none is new (or it overflowed
    /// again in an episode already reported).
    /// - Throws: ``IMUDeviceError/readFailed(_:)`` for the first overflowed measurement (ST2 HOFL) of an
    ///   episode; ``IMUDeviceError/unavailable(_:)`` when it stopped answering.
    func read() throws(IMUDeviceError) -> SIMD3<Double>? {
        let bytes = try transfer { () throws(I2CBusError) in
            try bus.readRegisters(address: Self.address, startingAt: Self.status1Register, count: Self.measurementLength)
        }
        guard bytes[0] & Self.dataReady != 0 else { return nil }
        let status2 = bytes[Self.measurementLength - 1]
        guard status2 & Self.sensorOverflow == 0 else {
            defer { overflowing = true }
            guard overflowing else {
                throw .readFailed(
                    "magnetometer overflow: the AK09916 reports ST2 \(I2CBusError.hex(status2)) (HOFL), the field "
                        + "exceeds its \(Int(Self.measurementRange)) µT range; its readings are left out until it is back")
            }
            return nil
        }
        overflowing = false
        func count(_ low: Int) -> Double { Double(Int16(bitPattern: UInt16(bytes[low + 1]) << 8 | UInt16(bytes[low]))) }
        return SIMD3(count(1), -count(3), -count(5)) * Self.resolution
    }

    /// Stops measuring. Errors are ignored.
    func stop() {
        try? bus.writeRegister(address: Self.address, Self.control2Register, Self.powerDown)
    }

    private func transfer<Result>(_ body: () throws(I2CBusError) -> Result) throws(IMUDeviceError) -> Result {
        do {
            return try body()
        } catch {
            throw IMUDeviceError(error)
        }
    }
}
