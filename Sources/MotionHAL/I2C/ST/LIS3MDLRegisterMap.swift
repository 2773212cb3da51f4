/// The LIS3MDL registers and bit fields ``LIS3MDLMagnetometer`` uses.
///
/// Sources: ST datasheet DocID024204 (LIS3MDL) §5.1.1 "I²C operation" (a multi-byte transfer increments the
/// register address only when bit 7 of the sub-address is set), §6 "Register mapping" and §7 "Register
/// description"; Linux `drivers/iio/magnetometer/st_magn_core.c` (the `LIS3MDL_MAGN_DEV_NAME` entry: WHO_AM_I
/// 0x3d, ODR 0x20 mask 0x1c, full scale 0x21 mask 0x60, power 0x22 mask 0x03).
enum LIS3MDLRegisterMap {
    /// The 7-bit addresses the chip can have: SA1 (SDO) low 0x1C, high 0x1E.
    static let addresses: [UInt8] = [0x1C, 0x1E]
    /// The value of WHO_AM_I.
    static let identity: UInt8 = 0x3D

    /// WHO_AM_I.
    static let whoAmI: UInt8 = 0x0F
    /// CTRL_REG1: TEMP_EN bit 7, OM (X/Y operating mode) bits 6:5, DO (data rate) bits 4:2, FAST_ODR bit 1,
    /// ST bit 0. Reset value 0x10 (10 Hz, low power).
    static let control1: UInt8 = 0x20
    /// CTRL_REG2: FS bits 6:5, REBOOT bit 3, SOFT_RST bit 2.
    static let control2: UInt8 = 0x21
    /// CTRL_REG3: LP bit 5, SIM bit 2, MD (mode) bits 1:0. Reset value 0x03 (power-down).
    static let control3: UInt8 = 0x22
    /// CTRL_REG4: OMZ (Z operating mode) bits 3:2, BLE bit 1.
    static let control4: UInt8 = 0x23
    /// CTRL_REG5: FAST_READ bit 7, BDU bit 6.
    static let control5: UInt8 = 0x24
    /// STATUS_REG: ZYXOR bit 7, ZOR/YOR/XOR bits 6:4, ZYXDA bit 3, ZDA/YDA/XDA bits 2:0; followed by OUT_X_L (0x28)
    /// … OUT_Z_H (0x2D), 16-bit two's complement, little-endian.
    static let status: UInt8 = 0x27

    /// Sub-address bit 7: increment the register address after each byte of a multi-byte transfer.
    static let autoIncrement: UInt8 = 0x80
    /// CTRL_REG2 SOFT_RST: resets the configuration and output registers; clears itself.
    static let softReset: UInt8 = 1 << 2
    /// OM / OMZ 11: ultra-high-performance mode, the lowest noise (CTRL_REG1 bits 6:5, CTRL_REG4 bits 3:2).
    static let ultraHighPerformanceXY: UInt8 = 0b11 << 5
    /// OMZ 11, in place in CTRL_REG4.
    static let ultraHighPerformanceZ: UInt8 = 0b11 << 2
    /// CTRL_REG5 BDU: the output registers hold a value until both its bytes were read.
    static let blockDataUpdate: UInt8 = 1 << 6
    /// CTRL_REG3 MD 00: continuous conversion.
    static let continuousMode: UInt8 = 0b00
    /// CTRL_REG3 MD 11: power-down.
    static let powerDownMode: UInt8 = 0b11
    /// STATUS_REG ZYXDA: a new X, Y and Z set is available.
    static let newDataAvailable: UInt8 = 1 << 3

    /// The DO rates of CTRL_REG1 bits 4:2, codes 0…7: 0.625, 1.25, 2.5, 5, 10, 20, 40 and 80 Hz (table 20).
    static let dataRates: [Double] = [0.625, 1.25, 2.5, 5, 10, 20, 40, 80]
}
