/// The trimming parameters of a Bosch BMP280 / BME280 and the datasheet's integer compensation formulas
/// (BST-BMP280-DS001 §3.11.3 and §8.2, BST-BME280-DS002 §4.2.3): a pure core, no I/O.
///
/// - Temperature: the 32-bit formula, °C in hundredths, and `t_fine`, the fine temperature the pressure
///   formula needs.
/// - Pressure: the 64-bit formula, Pa in Q24.8 (24 integer and 8 fractional bits: 24674867 is
///   96386.2 Pa).
///
/// The arithmetic is the C code's, bit for bit, with wrapping operations where C would overflow (only for
/// raw values no chip produces), so that no input can trap.
public struct BoschCompensation: Sendable, Equatable {
    /// dig_T1 (unsigned).
    public var t1: UInt16
    /// dig_T2.
    public var t2: Int16
    /// dig_T3.
    public var t3: Int16
    /// dig_P1 (unsigned).
    public var p1: UInt16
    /// dig_P2 … dig_P9.
    public var p2: Int16, p3: Int16, p4: Int16, p5: Int16, p6: Int16, p7: Int16, p8: Int16, p9: Int16

    /// The datasheet's example (BST-BMP280-DS001 §8.2 table): dig_T1 27504, dig_T2 26435, dig_T3 −1000,
    /// dig_P1 36477, dig_P2 −10685, dig_P3 3024, dig_P4 2855, dig_P5 140, dig_P6 −7, dig_P7 15500,
    /// dig_P8 −14600, dig_P9 6000; with it adc_T 519888 is 25.08 °C (t_fine 128422) and adc_P 415148 is
    /// 25767233 / 256 = 100653.25 Pa (the datasheet's 100653.27 Pa is its floating-point formula's, with
    /// t_fine unrounded).
    public static let datasheetExample = BoschCompensation(
        t1: 27504, t2: 26435, t3: -1000, p1: 36477, p2: -10685, p3: 3024, p4: 2855, p5: 140, p6: -7, p7: 15500,
        p8: -14600, p9: 6000)

    /// Creates a compensation from its parameters (dig_T1 … dig_P9).
    public init(
        t1: UInt16, t2: Int16, t3: Int16, p1: UInt16, p2: Int16, p3: Int16, p4: Int16, p5: Int16, p6: Int16,
        p7: Int16, p8: Int16, p9: Int16
    ) {
        (self.t1, self.t2, self.t3) = (t1, t2, t3)
        (self.p1, self.p2, self.p3, self.p4, self.p5) = (p1, p2, p3, p4, p5)
        (self.p6, self.p7, self.p8, self.p9) = (p6, p7, p8, p9)
    }

    /// Decodes the 24 bytes of calib00…calib23 (registers 0x88…0x9F, little-endian words).
    /// - Parameter bytes: the registers' contents, at least 24 bytes.
    /// - Returns: `nil` when there are fewer bytes or dig_T1 or dig_P1 is 0 (no chip is trimmed so: an
    ///   unreadable NVM, and the pressure formula would divide by zero).
    public init?(trimming bytes: [UInt8]) {
        guard bytes.count >= 24 else { return nil }
        func word(_ index: Int) -> UInt16 { UInt16(bytes[2 * index]) | UInt16(bytes[2 * index + 1]) << 8 }
        func signed(_ index: Int) -> Int16 { Int16(bitPattern: word(index)) }
        self.init(
            t1: word(0), t2: signed(1), t3: signed(2), p1: word(3), p2: signed(4), p3: signed(5), p4: signed(6),
            p5: signed(7), p6: signed(8), p7: signed(9), p8: signed(10), p9: signed(11))
        guard t1 != 0, p1 != 0 else { return nil }
    }

    /// The compensated temperature of a raw reading (`bmp280_compensate_T_int32`).
    /// - Parameter adc: the 20-bit raw temperature (temp_msb, temp_lsb, temp_xlsb bits 7:4).
    /// - Returns: hundredths of °C (2508 is 25.08 °C) and `t_fine` for ``pressure(adc:fineTemperature:)``.
    public func temperature(adc: Int32) -> (centidegrees: Int32, fineTemperature: Int32) {
        let adc = Int64(adc), t1 = Int64(t1)
        let var1 = (((adc >> 3) - (t1 << 1)) &* Int64(t2)) >> 11
        let delta = (adc >> 4) - t1
        let var2 = (((delta &* delta) >> 12) &* Int64(t3)) >> 14
        let fine = Int32(truncatingIfNeeded: var1 &+ var2)
        let centidegrees = Int32(truncatingIfNeeded: (Int64(fine) &* 5 &+ 128) >> 8)
        return (centidegrees, fine)
    }

    /// The compensated pressure of a raw reading (`bmp280_compensate_P_int64`).
    /// - Parameters:
    ///   - adc: the 20-bit raw pressure (press_msb, press_lsb, press_xlsb bits 7:4).
    ///   - fineTemperature: `t_fine` from ``temperature(adc:)`` of the same conversion.
    /// - Returns: Pa in Q24.8 (divide by 256 for Pa); 0 where the formula would divide by zero.
    public func pressure(adc: Int32, fineTemperature: Int32) -> UInt32 {
        var var1 = Int64(fineTemperature) - 128_000
        var var2 = var1 &* var1 &* Int64(p6)
        var2 = var2 &+ ((var1 &* Int64(p5)) << 17)
        var2 = var2 &+ (Int64(p4) << 35)
        var1 = ((var1 &* var1 &* Int64(p3)) >> 8) &+ ((var1 &* Int64(p2)) << 12)
        var1 = (((Int64(1) << 47) &+ var1) &* Int64(p1)) >> 33  // (Swift's >> binds tighter than *)
        guard var1 != 0 else { return 0 }
        let numerator = (((1_048_576 - Int64(adc)) << 31) &- var2) &* 3125
        let (quotient, overflow) = numerator.dividedReportingOverflow(by: var1)
        guard !overflow else { return 0 }
        var p = quotient
        var1 = (Int64(p9) &* (p >> 13) &* (p >> 13)) >> 25
        var2 = (Int64(p8) &* p) >> 19
        p = ((p &+ var1 &+ var2) >> 8) &+ (Int64(p7) << 4)
        return UInt32(truncatingIfNeeded: p)
    }
}
