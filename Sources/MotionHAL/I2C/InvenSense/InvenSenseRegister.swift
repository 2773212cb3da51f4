/// The MPU-6050 / MPU-6500 / MPU-9250 registers and bits the driver uses.
///
/// Addresses and bits from the "MPU-6000 and MPU-6050 Register Map and Descriptions" (RM-MPU-6000A, rev. 4.2)
/// and the "MPU-9250 Register Map and Descriptions" (RM-MPU-9250A, rev. 1.6), the same as Linux
/// `drivers/iio/imu/inv_mpu6050/inv_mpu_iio.h`. The MPU-6500 family keeps the MPU-6050's addresses.
enum InvenSenseRegister {
    /// SMPLRT_DIV: output data rate = internal rate / (1 + SMPLRT_DIV).
    static let sampleRateDivider: UInt8 = 0x19
    /// CONFIG: DLPF_CFG in bits 2:0 (gyroscope and, on the MPU-6050, accelerometer low-pass).
    static let configuration: UInt8 = 0x1A
    /// GYRO_CONFIG: FS_SEL in bits 4:3 (MPU-6500 family: FCHOICE_B in bits 1:0, 0 keeps the DLPF on).
    static let gyroscopeConfiguration: UInt8 = 0x1B
    /// ACCEL_CONFIG: AFS_SEL in bits 4:3.
    static let accelerometerConfiguration: UInt8 = 0x1C
    /// ACCEL_CONFIG2 (MPU-6500 family only): A_DLPF_CFG in bits 2:0, ACCEL_FCHOICE_B in bit 3.
    static let accelerometerConfiguration2: UInt8 = 0x1D
    /// FIFO_EN: which measurements are written to the FIFO.
    static let fifoEnable: UInt8 = 0x23
    /// INT_PIN_CFG: BYPASS_EN connects the auxiliary I²C bus (the MPU-9250's AK8963) to the host's.
    static let interruptPinConfiguration: UInt8 = 0x37
    /// INT_ENABLE: FIFO_OFLOW_EN in bit 4.
    static let interruptEnable: UInt8 = 0x38
    /// INT_STATUS: FIFO_OFLOW_INT in bit 4; cleared by reading.
    static let interruptStatus: UInt8 = 0x3A
    /// USER_CTRL: FIFO_EN (bit 6), I2C_MST_EN (bit 5), FIFO_RESET (bit 2).
    static let userControl: UInt8 = 0x6A
    /// PWR_MGMT_1: DEVICE_RESET (bit 7), SLEEP (bit 6), CLKSEL (bits 2:0).
    static let powerManagement1: UInt8 = 0x6B
    /// FIFO_COUNT_H, followed by FIFO_COUNT_L: bytes in the FIFO, big-endian.
    static let fifoCount: UInt8 = 0x72
    /// FIFO_R_W: the FIFO's read port; a burst read stays on this register and pops one byte per byte read.
    static let fifoData: UInt8 = 0x74
    /// WHO_AM_I: the chip's identity (0x68, 0x70, 0x71, 0x73).
    static let whoAmI: UInt8 = 0x75

    /// FIFO_EN bits: XG_FIFO_EN, YG_FIFO_EN, ZG_FIFO_EN (0x70) and ACCEL_FIFO_EN (0x08). With these four the
    /// FIFO holds 12-byte frames, ACCEL_XOUT_H ... ACCEL_ZOUT_L then GYRO_XOUT_H ... GYRO_ZOUT_L (register
    /// order, RM-MPU-6000A section 4.31).
    static let fifoAccelerometerAndGyroscope: UInt8 = 0x78
    /// FIFO_EN with ACCEL_FIFO_EN (0x08) alone: 6-byte frames, ACCEL_XOUT_H ... ACCEL_ZOUT_L.
    static let fifoAccelerometer: UInt8 = 0x08
    /// INT_ENABLE / INT_STATUS: FIFO overflow.
    static let fifoOverflow: UInt8 = 0x10
    /// INT_PIN_CFG: BYPASS_EN.
    static let bypassEnable: UInt8 = 0x02
    /// USER_CTRL: FIFO_EN, the FIFO's master switch.
    static let userFIFOEnable: UInt8 = 0x40
    /// USER_CTRL: FIFO_RESET; effective only while USER_CTRL FIFO_EN is 0, clears itself.
    static let fifoReset: UInt8 = 0x04
    /// PWR_MGMT_1: DEVICE_RESET; all registers to their reset values, clears itself when done.
    static let deviceReset: UInt8 = 0x80
    /// PWR_MGMT_1: SLEEP.
    static let sleep: UInt8 = 0x40
    /// PWR_MGMT_1: CLKSEL = 1, the PLL with the X gyroscope as reference (MPU-6050), the best available
    /// clock (MPU-6500 family); both datasheets recommend it over the internal oscillator.
    static let clockPLL: UInt8 = 0x01
    /// GYRO_CONFIG and ACCEL_CONFIG: the full-scale field's position, bits 4:3.
    static let fullScaleShift: UInt8 = 3
}
