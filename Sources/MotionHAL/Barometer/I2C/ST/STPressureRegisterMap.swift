/// The registers and bit fields the ST LPS22HB and LPS22DF share, as ``STPressureDriver`` uses them (what
/// differs is in ``STPressureVariant``).
///
/// Sources: ST datasheets DocID027083 (LPS22HB) §9 "Register description" and DS13833 (LPS22DF) §9;
/// Linux `drivers/iio/pressure/st_pressure_core.c` (the LPS22HB and LPS22DF entries: WHO_AM_I 0xb1 and
/// 0xb4, output registers from 0x28 and 0x2b, 4096 LSB/hPa, 100 LSB/°C, no multi-read bit: the address
/// increments by itself, IF_ADD_INC being set at reset).
enum STPressureRegisterMap {
    /// The 7-bit addresses: SA0 (SDO) low 0x5C, high 0x5D.
    static let addresses: [UInt8] = [0x5C, 0x5D]

    /// WHO_AM_I.
    static let whoAmI: UInt8 = 0x0F
    /// CTRL_REG1: ODR and, by chip, the filter, BDU or averaging (see ``STPressureVariant``).
    static let control1: UInt8 = 0x10
    /// CTRL_REG2: BOOT bit 7, SWRESET bit 2, ONE_SHOT bit 0 (on both chips).
    static let control2: UInt8 = 0x11
    /// STATUS: T_OR bit 5, P_OR bit 4, T_DA bit 1, P_DA bit 0; followed by PRESS_OUT_XL, _L, _H (24-bit two's
    /// complement, little-endian) and TEMP_OUT_L, _H (16-bit two's complement), 0x28…0x2C.
    static let status: UInt8 = 0x27

    /// CTRL_REG2 SWRESET: restores the registers' reset values; clears itself.
    static let softwareReset: UInt8 = 1 << 2
    /// STATUS P_DA: a new pressure value is ready (cleared by reading PRESS_OUT_H).
    static let pressureReady: UInt8 = 1 << 0
    /// STATUS P_OR: a pressure value was overwritten before it was read.
    static let pressureOverrun: UInt8 = 1 << 4
    /// The pressure's sensitivity, LSB per hPa.
    static let countsPerHectopascal = 4096.0
    /// The temperature's sensitivity, LSB per °C.
    static let countsPerDegree = 100.0
}
