/// The BMP280 / BME280 registers and bit fields ``BoschBarometerDriver`` uses (the two chips share them;
/// the BME280 adds humidity).
///
/// Sources: Bosch datasheets BST-BMP280-DS001 §4 "Global memory map and register description" (table 18)
/// and §3.11.2 "Trimming parameter readout" (table 17), BST-BME280-DS002 §5; Linux
/// `drivers/iio/pressure/bmp280.h` (the same addresses). Multi-byte reads auto-increment; data registers
/// are big-endian, trimming parameters little-endian.
enum BoschBarometerRegisterMap {
    /// The 7-bit addresses: SDO to GND 0x76, to VDDIO 0x77.
    static let addresses: [UInt8] = [0x76, 0x77]

    /// calib00…calib25 (0x88…0xA1): dig_T1 (u16), dig_T2, dig_T3, dig_P1 (u16), dig_P2 … dig_P9 (s16), the
    /// first 24 bytes used here.
    static let trimming: UInt8 = 0x88
    /// Bytes of the temperature and pressure trimming parameters (dig_T1 … dig_P9).
    static let trimmingLength = 24
    /// calib25 (BME280): dig_H1 (u8).
    static let humidityTrimming1: UInt8 = 0xA1
    /// calib26…calib32 (BME280, 0xE1…0xE7): dig_H2 (s16), dig_H3 (u8), dig_H4 and dig_H5 (s12, sharing
    /// 0xE5), dig_H6 (s8): ``BoschHumidityCompensation``.
    static let humidityTrimming2: UInt8 = 0xE1
    /// Bytes at ``humidityTrimming2``.
    static let humidityTrimmingLength = 7
    /// id: the chip identity (0x58 BMP280, 0x60 BME280).
    static let chipIdentity: UInt8 = 0xD0
    /// reset: writing ``resetCommand`` performs a power-on reset; reads 0.
    static let reset: UInt8 = 0xE0
    /// The value that resets the chip.
    static let resetCommand: UInt8 = 0xB6
    /// ctrl_hum (BME280 only): osrs_h bits 2:0 (0 skipped, 1 ×1); takes effect with the next write of
    /// ctrl_meas.
    static let controlHumidity: UInt8 = 0xF2
    /// status: measuring bit 3 (a conversion runs), im_update bit 0 (the trimming NVM is being copied).
    static let status: UInt8 = 0xF3
    /// ctrl_meas: osrs_t bits 7:5, osrs_p bits 4:2, mode bits 1:0 (00 sleep, 01/10 forced, 11 normal).
    static let controlMeasurement: UInt8 = 0xF4
    /// config: t_sb (standby) bits 7:5, filter (IIR coefficient) bits 4:2, spi3w_en bit 0. Writes in normal
    /// mode may be ignored: written in sleep mode.
    static let configuration: UInt8 = 0xF5
    /// press_msb, press_lsb, press_xlsb (bits 7:4), then temp_msb, temp_lsb, temp_xlsb (0xFA…0xFC): the
    /// 20-bit raw values, read in one burst so both come from the same conversion; on a BME280 hum_msb and
    /// hum_lsb (0xFD, 0xFE) follow, the 16-bit raw humidity, read in the same burst.
    static let pressureData: UInt8 = 0xF7

    /// status im_update.
    static let updatingTrimming: UInt8 = 1 << 0
    /// ctrl_meas mode 11: normal mode, conversions every measurement time plus standby time.
    static let normalMode: UInt8 = 0b11
    /// ctrl_meas 0: sleep mode, nothing measured.
    static let sleepMode: UInt8 = 0b00
    /// The raw value of a quantity that was not measured (oversampling "skipped", or nothing converted
    /// since the reset): the registers' reset value 0x80000.
    static let skipped: Int32 = 0x80000
    /// The raw humidity of a humidity not measured (osrs_h "skipped"): hum_msb/lsb's reset value 0x8000.
    static let humiditySkipped: Int32 = 0x8000
}
