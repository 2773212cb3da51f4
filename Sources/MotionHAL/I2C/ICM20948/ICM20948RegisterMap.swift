/// The ICM-20948's registers and bit fields the driver uses, from the TDK InvenSense datasheet DS-000189
/// (rev. 1.3): the register map of user banks 0 and 2 and the register descriptions that follow it.
///
/// The chip has four user banks of up to 128 registers; REG_BANK_SEL (0x7F, present in every bank) bits 5:4
/// choose which bank the other addresses refer to. Cross-checked against PX4's
/// `InvenSense_ICM20948_registers.hpp` and SparkFun's `ICM_20948_REGISTERS.h`.
enum ICM20948RegisterMap {
    /// One register: the bank it lives in and its address there.
    struct Register: Equatable, CustomStringConvertible {
        /// User bank, 0...3.
        let bank: UInt8
        /// Address within the bank.
        let address: UInt8
        /// The datasheet's name, for messages.
        let name: String

        var description: String { "\(name) (bank \(bank), \(I2CBusError.hex(address)))" }
    }

    /// REG_BANK_SEL: bits 5:4 select the user bank; the same address in every bank.
    static let bankSelectAddress: UInt8 = 0x7F
    /// Shift of the bank number in REG_BANK_SEL.
    static let bankSelectShift: UInt8 = 4
    /// REG_BANK_SEL bits that are reserved (read as 0 on an ICM-20948).
    static let bankSelectReservedBits: UInt8 = 0xCF

    // MARK: User bank 0

    /// WHO_AM_I, reads ``whoAmIValue``.
    static let whoAmI = Register(bank: 0, address: 0x00, name: "WHO_AM_I")
    /// USER_CTRL: bit 6 FIFO_EN, bit 5 I2C_MST_EN.
    static let userControl = Register(bank: 0, address: 0x03, name: "USER_CTRL")
    /// PWR_MGMT_1: bit 7 DEVICE_RESET (self-clearing), bit 6 SLEEP, bits 2:0 CLKSEL.
    static let powerManagement1 = Register(bank: 0, address: 0x06, name: "PWR_MGMT_1")
    /// PWR_MGMT_2: bits 5:3 DISABLE_ACCEL, bits 2:0 DISABLE_GYRO (0: all axes on).
    static let powerManagement2 = Register(bank: 0, address: 0x07, name: "PWR_MGMT_2")
    /// INT_PIN_CFG: bit 1 BYPASS_EN connects the auxiliary bus (the AK09916) to the host's bus.
    static let interruptPinConfiguration = Register(bank: 0, address: 0x0F, name: "INT_PIN_CFG")
    /// INT_STATUS_2: bits 4:0 FIFO_OVERFLOW_INT, cleared by reading.
    static let interruptStatus2 = Register(bank: 0, address: 0x1B, name: "INT_STATUS_2")
    /// FIFO_EN_2: bit 4 ACCEL_FIFO_EN, bits 3:1 GYRO_Z/Y/X_FIFO_EN, bit 0 TEMP_FIFO_EN.
    static let fifoEnable2 = Register(bank: 0, address: 0x67, name: "FIFO_EN_2")
    /// FIFO_RST: bits 4:0 FIFO_RESET, asserted then de-asserted.
    static let fifoReset = Register(bank: 0, address: 0x68, name: "FIFO_RST")
    /// FIFO_MODE: 0 stream (a full FIFO drops its oldest bytes), 1 snapshot.
    static let fifoMode = Register(bank: 0, address: 0x69, name: "FIFO_MODE")
    /// FIFO_COUNTH: bits 4:0 are FIFO_COUNT[12:8]; FIFO_COUNTL follows at 0x71.
    static let fifoCountHigh = Register(bank: 0, address: 0x70, name: "FIFO_COUNTH")
    /// FIFO_R_W: each read pops one FIFO byte; a burst read stays on this address.
    static let fifoReadWrite = Register(bank: 0, address: 0x72, name: "FIFO_R_W")

    // MARK: User bank 2

    /// GYRO_SMPLRT_DIV: gyroscope output rate = base rate / (1 + divider), 8 bits.
    static let gyroscopeSampleRateDivider = Register(bank: 2, address: 0x00, name: "GYRO_SMPLRT_DIV")
    /// GYRO_CONFIG_1: bits 5:3 GYRO_DLPFCFG, bits 2:1 GYRO_FS_SEL, bit 0 GYRO_FCHOICE.
    static let gyroscopeConfiguration1 = Register(bank: 2, address: 0x01, name: "GYRO_CONFIG_1")
    /// ACCEL_SMPLRT_DIV_1: bits 3:0 are the divider's bits 11:8; ACCEL_SMPLRT_DIV_2 (bits 7:0) follows at 0x11.
    static let accelerometerSampleRateDivider1 = Register(bank: 2, address: 0x10, name: "ACCEL_SMPLRT_DIV_1")
    /// ACCEL_CONFIG: bits 5:3 ACCEL_DLPFCFG, bits 2:1 ACCEL_FS_SEL, bit 0 ACCEL_FCHOICE.
    static let accelerometerConfiguration = Register(bank: 2, address: 0x14, name: "ACCEL_CONFIG")

    // MARK: Values and bits

    /// What WHO_AM_I reads on an ICM-20948.
    static let whoAmIValue: UInt8 = 0xEA
    /// PWR_MGMT_1 DEVICE_RESET: resets every register; clears itself when done.
    static let deviceReset: UInt8 = 0x80
    /// PWR_MGMT_1 SLEEP.
    static let sleep: UInt8 = 0x40
    /// PWR_MGMT_1 CLKSEL = 1: the best available clock (the gyroscope's PLL when it runs), as recommended.
    static let clockAuto: UInt8 = 0x01
    /// INT_PIN_CFG BYPASS_EN.
    static let bypassEnable: UInt8 = 0x02
    /// USER_CTRL FIFO_EN.
    static let userControlFIFOEnable: UInt8 = 0x40
    /// FIFO_EN_2: accelerometer and the three gyroscope axes (not the temperature).
    static let fifoAccelerometerAndGyroscope: UInt8 = 0x1E
    /// FIFO_EN_2 ACCEL_FIFO_EN alone: 6-byte frames.
    static let fifoAccelerometer: UInt8 = 0x10
    /// PWR_MGMT_2 DISABLE_GYRO: the three gyroscope axes off, the accelerometer on.
    static let gyroscopeOff: UInt8 = 0x07
    /// FIFO_RST: all five FIFOs held in reset.
    static let fifoResetAll: UInt8 = 0x1F
    /// INT_STATUS_2 FIFO_OVERFLOW_INT bits.
    static let fifoOverflowBits: UInt8 = 0x1F
    /// FIFO_COUNTH bits that hold the count (a 13-bit count).
    static let fifoCountHighMask: UInt8 = 0x1F
    /// Bit position of FS_SEL in GYRO_CONFIG_1 and ACCEL_CONFIG.
    static let fullScaleShift: UInt8 = 1
    /// Bit position of DLPFCFG in GYRO_CONFIG_1 and ACCEL_CONFIG.
    static let lowPassShift: UInt8 = 3
    /// FCHOICE in GYRO_CONFIG_1 and ACCEL_CONFIG: 1 enables the low-pass filter and the rate dividers.
    static let filterChoice: UInt8 = 0x01

    /// The FIFO's size, bytes (datasheet "FIFO" section; PX4's `FIFO::SIZE`).
    static let fifoCapacity = 512
    /// One FIFO frame with accelerometer and gyroscope enabled: ACCEL_X/Y/Z then GYRO_X/Y/Z, big-endian int16.
    static let fifoFrameSize = 12
    /// Bytes per FIFO frame with the accelerometer alone.
    static let accelerometerFrameSize = 6
}
