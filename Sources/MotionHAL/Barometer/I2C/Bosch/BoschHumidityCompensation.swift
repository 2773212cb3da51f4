/// The humidity trimming parameters of a Bosch BME280 and the datasheet's integer humidity formula
/// (BST-BME280-DS002 §4.2.2 "trimming parameter readout", table 16, and §4.2.3
/// `bme280_compensate_H_int32`): a pure core, no I/O.
///
/// The formula returns relative humidity in %RH as Q22.10 (22 integer and 10 fractional bits: 47445 is
/// 46.333 %RH), clamped to 0…100 %RH, from the 16-bit raw value and the `t_fine` of the same conversion
/// (``BoschCompensation/temperature(adc:)``). The arithmetic is the C code's, bit for bit, with wrapping
/// operations where 32-bit C would overflow (only for raw values no chip produces), so no input can trap.
public struct BoschHumidityCompensation: Sendable, Equatable {
    /// dig_H1 (unsigned, 0xA1).
    public var h1: UInt8
    /// dig_H2 (0xE1/0xE2, little-endian).
    public var h2: Int16
    /// dig_H3 (unsigned, 0xE3).
    public var h3: UInt8
    /// dig_H4 (12 bits signed: 0xE4 bits 11:4, 0xE5 bits 3:0).
    public var h4: Int16
    /// dig_H5 (12 bits signed: 0xE6 bits 11:4, 0xE5 bits 7:4 as bits 3:0).
    public var h5: Int16
    /// dig_H6 (signed, 0xE7).
    public var h6: Int8

    /// Creates a compensation from its parameters (dig_H1 … dig_H6).
    public init(h1: UInt8, h2: Int16, h3: UInt8, h4: Int16, h5: Int16, h6: Int8) {
        (self.h1, self.h2, self.h3, self.h4, self.h5, self.h6) = (h1, h2, h3, h4, h5, h6)
    }

    /// Decodes calib25 (0xA1) and calib26…calib32 (0xE1…0xE7).
    /// - Parameters:
    ///   - h1: the byte at 0xA1.
    ///   - bytes: the seven bytes at 0xE1…0xE7.
    /// - Returns: `nil` with fewer than seven bytes, or when dig_H2 is 0 (an unreadable NVM: the formula
    ///   would read 0 %RH whatever the air).
    public init?(h1: UInt8, bytes: [UInt8]) {
        guard bytes.count >= 7 else { return nil }
        // dig_H4 and dig_H5 are 12-bit two's-complement numbers whose top byte is signed (as in Bosch's
        // BME280_driver: (int8_t)E4 * 16 | E5 & 0x0F, and (int8_t)E6 * 16 | E5 >> 4).
        self.init(
            h1: h1, h2: Int16(bitPattern: UInt16(bytes[0]) | UInt16(bytes[1]) << 8), h3: bytes[2],
            h4: Int16(Int8(bitPattern: bytes[3])) * 16 | Int16(bytes[4] & 0x0F),
            h5: Int16(Int8(bitPattern: bytes[5])) * 16 | Int16(bytes[4] >> 4),
            h6: Int8(bitPattern: bytes[6]))
        guard h2 != 0 else { return nil }
    }

    /// The compensated relative humidity of a raw reading (`bme280_compensate_H_int32`).
    /// - Parameters:
    ///   - adc: the 16-bit raw humidity (hum_msb, hum_lsb).
    ///   - fineTemperature: `t_fine` of the same conversion.
    /// - Returns: %RH in Q22.10 (divide by 1024 for %RH), 0…102 400.
    public func humidity(adc: Int32, fineTemperature: Int32) -> UInt32 {
        var x = fineTemperature &- 76_800
        let first = ((adc << 14) &- (Int32(h4) << 20) &- (Int32(h5) &* x) &+ 16_384) >> 15
        let second = (((((x &* Int32(h6)) >> 10) &* (((x &* Int32(h3)) >> 11) &+ 32_768)) >> 10) &+ 2_097_152)
            &* Int32(h2) &+ 8_192
        x = first &* (second >> 14)
        x = x &- (((((x >> 15) &* (x >> 15)) >> 7) &* Int32(h1)) >> 4)
        x = min(max(x, 0), 419_430_400)
        return UInt32(x >> 12)
    }
}
