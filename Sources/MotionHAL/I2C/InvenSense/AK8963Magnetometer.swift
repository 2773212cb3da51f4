/// The AK8963 magnetometer inside the MPU-9250, driven directly over the host's bus while the MPU-9250 is
/// in bypass mode (INT_PIN_CFG BYPASS_EN set, USER_CTRL I2C_MST_EN clear).
///
/// Registers and bits from the AK8963 datasheet (MS1356-E, register descriptions) as in Linux
/// `drivers/iio/imu/inv_mpu6050/inv_mpu_magn.c` and `drivers/iio/magnetometer/ak8975.c`. The chip runs in
/// continuous measurement mode 2 (100 Hz) with 16-bit output, 0.15 µT/LSB; the fuse ROM's sensitivity
/// adjustment is applied, and the values are turned into the MPU-9250's accelerometer/gyroscope axes
/// (the AK8963's x is the MPU's y, its y the MPU's x, its z the MPU's −z: `inv_mpu_magn_set_orient`).
struct AK8963Magnetometer {
    /// The AK8963's fixed 7-bit address.
    static let address: UInt8 = 0x0C
    /// The largest field the AK8963 measures, µT (datasheet: measurement range ±4912 µT).
    static let fullScale = 4912.0
    /// µT per LSB in 16-bit output mode (datasheet: sensitivity 0.15 µT/LSB typical).
    static let sensitivity = 0.15

    private enum Register {
        /// WIA: device ID, reads 0x48.
        static let deviceID: UInt8 = 0x00
        /// ST1: DRDY (bit 0) set when a measurement is ready.
        static let status1: UInt8 = 0x02
        /// HXL: first of HXL, HXH, HYL, HYH, HZL, HZH (little-endian), followed by ST2.
        static let measurement: UInt8 = 0x03
        /// CNTL1: MODE (bits 3:0) and BIT (bit 4: 16-bit output).
        static let control1: UInt8 = 0x0A
        /// CNTL2: SRST (bit 0), soft reset.
        static let control2: UInt8 = 0x0B
        /// ASAX, ASAY, ASAZ: the fuse ROM's sensitivity adjustment, readable in fuse ROM access mode.
        static let sensitivityAdjustment: UInt8 = 0x10
    }
    private static let expectedDeviceID: UInt8 = 0x48
    private static let dataReady: UInt8 = 0x01
    /// ST2 HOFL: the sum of the axes' magnitudes exceeded the range; the measurement is invalid.
    private static let sensorOverflow: UInt8 = 0x08
    private static let softReset: UInt8 = 0x01
    private static let powerDown: UInt8 = 0x00
    private static let fuseROMAccess: UInt8 = 0x0F
    /// CNTL1 = BIT (16-bit output) | MODE 0110 (continuous measurement mode 2, 100 Hz).
    private static let continuous100HzSixteenBit: UInt8 = 0x16
    /// Datasheet, operation modes: at least 100 µs in power-down mode before entering another mode.
    private static let modeChangeTime = 0.0001

    /// What one read found.
    enum Reading: Equatable {
        /// A new measurement, µT, in the MPU-9250's accelerometer/gyroscope axes.
        case field(SIMD3<Double>)
        /// A new measurement that overflowed (ST2 HOFL): no value.
        case overflow
    }

    private let bus: any I2CBus
    private let time: DeviceTime
    /// µT per LSB for each of the AK8963's axes, the fuse ROM's adjustment applied.
    private var scale = SIMD3<Double>(repeating: sensitivity)

    /// A magnetometer on `bus`, not yet configured, waiting on `time`.
    init(bus: any I2CBus, time: DeviceTime) {
        self.bus = bus
        self.time = time
    }

    /// Checks the identity, resets the chip, reads the sensitivity adjustment from the fuse ROM and starts
    /// continuous measurement at 100 Hz with 16-bit output.
    /// - Throws: ``IMUDeviceError/unavailable(_:)`` when nothing answers at 0x0C (bypass not enabled, or no
    ///   magnetometer), ``IMUDeviceError/readFailed(_:)`` for a WIA other than 0x48.
    mutating func start() throws(IMUDeviceError) {
        let identity = try read(Register.deviceID, count: 1)[0]
        guard identity == Self.expectedDeviceID else {
            throw .readFailed(
                "the AK8963 magnetometer at \(I2CBusError.hex(Self.address)) on \(bus.name) reads WIA "
                    + "\(I2CBusError.hex(identity)), expected 0x48")
        }
        try write(Register.control2, Self.softReset)
        try write(Register.control1, Self.fuseROMAccess)
        let adjustment = try read(Register.sensitivityAdjustment, count: 3)
        // Datasheet, ASAX/ASAY/ASAZ: Hadj = H × ((ASA − 128) × 0.5 / 128 + 1).
        scale = SIMD3(adjustment.map { Self.sensitivity * ((Double($0) - 128) / 256 + 1) })
        try write(Register.control1, Self.powerDown)
        time.sleep(seconds: Self.modeChangeTime)
        try write(Register.control1, Self.continuous100HzSixteenBit)
    }

    /// The measurement made since the last read, if any: ST1 says whether one is ready, then the six data
    /// bytes and ST2 are read in one burst (reading ST2 tells the chip the measurement was taken).
    /// - Throws: ``IMUDeviceError`` when the bus fails.
    func read() throws(IMUDeviceError) -> Reading? {
        guard try read(Register.status1, count: 1)[0] & Self.dataReady != 0 else { return nil }
        let bytes = try read(Register.measurement, count: 7)
        guard bytes[6] & Self.sensorOverflow == 0 else { return .overflow }
        func axis(_ index: Int) -> Double {
            Double(Int16(bitPattern: UInt16(bytes[2 * index + 1]) << 8 | UInt16(bytes[2 * index])))
        }
        let field = SIMD3(axis(0), axis(1), axis(2)) * scale
        return .field(SIMD3(field.y, field.x, -field.z))
    }

    /// Powers the magnetometer down, ignoring bus errors.
    func stop() {
        try? bus.writeRegister(address: Self.address, Register.control1, Self.powerDown)
    }

    private func write(_ register: UInt8, _ value: UInt8) throws(IMUDeviceError) {
        try InvenSenseBusAccess.transfer { () throws(I2CBusError) in
            try bus.writeRegister(address: Self.address, register, value)
        }
    }

    private func read(_ register: UInt8, count: Int) throws(IMUDeviceError) -> [UInt8] {
        try InvenSenseBusAccess.transfer { () throws(I2CBusError) in
            try bus.readRegisters(address: Self.address, startingAt: register, count: count)
        }
    }
}
