import MotionHAL
import MotionTestSupport
import Testing

/// The MS5837's integer compensation against its datasheets' worked examples and every second-order
/// branch, the CRC-4 against AN520's example and the datasheet's routine, and the variant table.
///
/// The second-order figures were computed with an independent transliteration of the datasheets' formulas
/// (Python, shifts rounding down), not with this code.
@Suite struct MS5837CompensationTests {
    @Test func theThirtyBarDatasheetExample() {
        // MS5837-30BA datasheet, "Pressure and temperature calculation", typical values.
        let first = MS5837Compensation.datasheetExample30BA.firstOrder(d1: 4_958_179, d2: 6_815_414)
        #expect(first.dT == -5962)
        #expect(first.temperature == 1981)  // 19.81 °C (C's truncating division would give 1982)
        #expect(first.sensitivity == 1_145_816_755)
        // The datasheet prints OFF 2381326464; C2·2¹⁶ + C4·dT / 2⁷ is 2382364672 − 1041208 = 2381323464 (one
        // digit differs: a misprint; its P, 39998, is this OFF's).
        #expect(first.offset == 2_381_323_464)
        #expect(first.pressure == 39998)  // 3999.8 mbar
        // At 19.81 °C the low-temperature terms apply (Ti 0, OFFi 541, SENSi 225) and leave P at 39998.
        let output = MS5837Compensation.datasheetExample30BA.compensate(d1: 4_958_179, d2: 6_815_414)
        #expect(output.temperature == 1981 && output.pressure == 39998)
        #expect(output.pascals == 399_980 && output.celsius == 19.81)
    }

    @Test func theTwoBarDatasheetExample() {
        // MS5837-02BA datasheet (09/2017), the same table: 20.00 °C and 1100.02 mbar.
        let compensation = MS5837Compensation.datasheetExample02BA
        let first = compensation.firstOrder(d1: 6_465_444, d2: 8_077_636)
        #expect(first.dT == 68 && first.temperature == 2000)
        #expect(first.offset == 5_764_707_214 && first.sensitivity == 3_039_050_829)
        #expect(first.pressure == 110_002)
        // 20.00 °C is not below 20 °C: no second order.
        let output = compensation.compensate(d1: 6_465_444, d2: 8_077_636)
        #expect(output.temperature == 2000 && output.pressure == 110_002 && output.pascals == 110_002)
    }

    /// One second-order case: the part (its datasheet example's C1…C6 and D1), dT, and what the
    /// independent transliteration gives: first-order TEMP, Ti, OFFi, SENSi, then TEMP and P.
    struct SecondOrderCase: Sendable, CustomTestStringConvertible {
        var compensation: MS5837Compensation
        var d1: UInt32
        var dT: Int64
        var expected: (firstTemperature: Int64, ti: Int64, offi: Int64, sensi: Int64, temperature: Int64, pressure: Int64)
        var testDescription: String { "\(compensation.variant.name) dT \(dT)" }
    }

    static let secondOrderCases: [SecondOrderCase] = [
        // -30BA, D1 4958179: below 20 °C, below −15 °C, 20 °C and above.
        .init(compensation: .datasheetExample30BA, d1: 4_958_179, dT: -320_000, expected: (1002, 35, 1_494_006, 622_502, 967, 39499)),
        .init(compensation: .datasheetExample30BA, d1: 4_958_179, dT: -1_300_000, expected: (-2052, 590, 26_760_984, 11_480_506, -2642, 37883)),
        .init(compensation: .datasheetExample30BA, d1: 4_958_179, dT: 640_000, expected: (3994, 5, 248_502, 0, 3989, 41061)),
        // -02BA, D1 6465444: below 20 °C (twice: it has no very-low branch) and above, where nothing changes.
        .init(compensation: .datasheetExample02BA, d1: 6_465_444, dT: -320_000, expected: (925, 32, 4_478_046, 2_275_136, 893, 107_338)),
        .init(compensation: .datasheetExample02BA, d1: 6_465_444, dT: -1_300_000, expected: (-2365, 541, 73_831_246, 37_511_036, -2906, 98218)),
        .init(compensation: .datasheetExample02BA, d1: 6_465_444, dT: 640_000, expected: (4148, 0, 0, 0, 4148, 115_175)),
    ]

    @Test(arguments: secondOrderCases)
    func theSecondOrderBranches(_ test: SecondOrderCase) {
        let compensation = test.compensation, expected = test.expected
        let d2 = UInt32(Int64(compensation.c5) * 256 + test.dT)
        let first = compensation.firstOrder(d1: test.d1, d2: d2)
        #expect(first.temperature == expected.firstTemperature)
        let terms = compensation.secondOrderTerms(dT: first.dT, temperature: first.temperature)
        #expect(terms.temperature == expected.ti && terms.offset == expected.offi && terms.sensitivity == expected.sensi)
        let output = compensation.compensate(d1: test.d1, d2: d2)
        #expect(output.temperature == expected.temperature && output.pressure == expected.pressure)
        if expected.ti == 0 && expected.offi == 0 { #expect(output.pressure == first.pressure) }
    }

    @Test func theCRCCoreIsAN520s() {
        // AN520's example (eight words, CRC 0xB), the routine the MS5837 datasheets reuse.
        let words: [UInt16] = [0x3132, 0x3334, 0x3536, 0x3738, 0x3940, 0x4142, 0x4344, 0x4500]
        #expect(MS5837Compensation.crc4(words: words) == 0xB)
    }

    @Test func theCRCOfAPROM() {
        // The datasheet's C routine (word 0's nibble cleared, word 7 = 0) run on the examples' C1…C6 with a
        // version field: 0x1A (-30BA26) gives 9, with factory bits 0b00111 4; 0x15 (-02BA21) gives 5.
        let thirty: [UInt16] = [0x0340, 34982, 36352, 20328, 22354, 26646, 26146]
        #expect(MS5837Compensation.crc4(prom: thirty) == 9)
        #expect(MS5837Compensation.crc4(prom: [0x0347] + thirty.dropFirst()) == 4)
        let two: [UInt16] = [0x02A0, 46372, 43981, 29059, 27842, 31553, 28165]
        #expect(MS5837Compensation.crc4(prom: two) == 5)
        // The stored nibble does not enter its own CRC.
        #expect(MS5837Compensation.crc4(prom: [0x9340] + thirty.dropFirst()) == 9)
        #expect(MS5837Compensation.check(prom: [0x9340] + thirty.dropFirst()) == nil)
        #expect(MS5837Compensation.version(ofWord0: 0x9340) == 0x1A && MS5837Compensation.version(ofWord0: 0x52A0) == 0x15)
        // And the emulation's PROM carries the same.
        #expect(MS5837Compensation.datasheetExample30BA.promWords() == [0x9340] + thirty.dropFirst())
    }

    @Test func aPROMThatIsNoCalibrationIsRejected() throws {
        let good = MS5837Compensation.datasheetExample30BA.promWords()
        var flipped = good
        flipped[3] ^= 0x0100
        #expect(MS5837Compensation.check(prom: flipped) == .crcMismatch(stored: 9, computed: MS5837Compensation.crc4(prom: flipped)))
        #expect(MS5837Compensation.crc4(prom: flipped) != 9)
        // All zeros pass the CRC (it is 0): rejected as blank, as are all ones.
        #expect(MS5837Compensation.crc4(prom: [UInt16](repeating: 0, count: 7)) == 0)
        #expect(MS5837Compensation.check(prom: [UInt16](repeating: 0, count: 7)) == .blank)
        #expect(MS5837Compensation.check(prom: [UInt16](repeating: 0xFFFF, count: 7)) == .blank)
        #expect(MS5837Compensation.check(prom: Array(good.prefix(6))) == .wrongLength(6))
        #expect(throws: MS5837PROMError.crcMismatch(stored: 9, computed: MS5837Compensation.crc4(prom: flipped))) {
            try MS5837Compensation(prom: flipped, variant: .ms5837_30ba)
        }
        #expect(try MS5837Compensation(prom: good, variant: .ms5837_30ba) == .datasheetExample30BA)
        #expect("\(MS5837PROMError.crcMismatch(stored: 9, computed: 3))".contains("CRC-4 is 9 but its words give 3"))
    }

    @Test(arguments: MS5837Variant.all)
    func theIntegerFormulaRecoversWhatTheEmulationInverted(variant: MS5837Variant) {
        // Over the operating range, the raw values the emulation computes from the real-number formula come
        // back through the integer one within its steps: P rounded down to one unit (10 Pa or 1 Pa) and a
        // little more for D1's rounding; TEMP to 0.01 °C.
        var compensation = variant == .ms5837_30ba ? MS5837Compensation.datasheetExample30BA : .datasheetExample02BA
        compensation.variant = variant
        let pressures: [Double] = variant == .ms5837_30ba ? [80_000, 101_325, 500_000, 2_900_000] : [30_000, 101_325, 119_000]
        for celsius in [-19.5, -15.5, 0, 19.99, 20, 21.5, 40, 84.5] {
            for pascals in pressures {
                let d2 = compensation.temperatureADC(for: celsius)
                let d1 = compensation.pressureADC(for: pascals, d2: d2)
                let output = compensation.compensate(d1: d1, d2: d2)
                #expect(abs(output.celsius - celsius) <= 0.011, "\(variant.name) \(celsius) °C: \(output.celsius)")
                #expect(output.pascals <= pascals + 0.1 * variant.pascalsPerUnit, "\(variant.name) \(pascals) Pa at \(celsius) °C: \(output.pascals)")
                #expect(output.pascals >= pascals - 1.1 * variant.pascalsPerUnit, "\(variant.name) \(pascals) Pa at \(celsius) °C: \(output.pascals)")
            }
        }
    }

    @Test func theVariantTable() {
        #expect(MS5837Variant.detect(version: 0x1A) == .ms5837_30ba)
        #expect(MS5837Variant.detect(version: 0x00) == .ms5837_02ba && MS5837Variant.detect(version: 0x15) == .ms5837_02ba)
        #expect(MS5837Variant.detect(version: 0x33) == nil)
        // OSR: conversions of at most 0.4 of the period; the -30BA's REV C2 datasheet stops at 4096.
        #expect(MS5837Variant.ms5837_30ba.oversampling(forRate: 10) == .x4096)
        #expect(MS5837Variant.ms5837_02ba.oversampling(forRate: 10) == .x8192)
        #expect(MS5837Variant.ms5837_02ba.oversampling(forRate: 25) == .x4096)
        #expect(MS5837Variant.ms5837_30ba.oversampling(forRate: 50) == .x2048)
        #expect(MS5837Variant.ms5837_30ba.oversampling(forRate: 100) == .x1024)
        #expect(MS5837Oversampling.allCases.map(\.commandOffset) == [0, 2, 4, 6, 8, 10])
        #expect(MS5837Oversampling.x8192.maximumConversionTime == 0.018_08)
    }
}
