/// The calibration of an MS5837 (C1…C6 from its PROM) and the datasheet's integer compensation: a pure
/// core, no I/O.
///
/// - First order (both datasheets' "Pressure and temperature calculation"): dT = D2 − C5·2⁸,
///   TEMP = 2000 + dT·C6 / 2²³ (0.01 °C), OFF and SENS with the part's exponents (``MS5837Variant``), and
///   P = (D1·SENS / 2²¹ − OFF) / 2^n: 0.1 mbar on a -30BA (n = 13), 0.01 mbar on a -02BA (n = 15).
/// - Second order (``MS5837Variant/SecondOrder``), subtracted from TEMP, OFF and SENS before P:
///   - -30BA, TEMP < 20 °C: Ti = 3·dT² / 2³³, OFFi = 3·(TEMP−2000)² / 2, SENSi = 5·(TEMP−2000)² / 2³;
///     below −15 °C also OFFi += 7·(TEMP+1500)², SENSi += 4·(TEMP+1500)²; TEMP ≥ 20 °C:
///     Ti = 2·dT² / 2³⁷, OFFi = (TEMP−2000)² / 2⁴, SENSi = 0.
///   - -02BA, TEMP < 20 °C: Ti = 11·dT² / 2³⁵, OFFi = 31·(TEMP−2000)² / 2³, SENSi = 63·(TEMP−2000)² / 2⁵;
///     nothing at or above 20 °C.
///   The branches test TEMP against 2000 and −1500 as the datasheets' flow charts do (Blue Robotics'
///   libraries compare TEMP / 100, which differs between −15.99 and −15.01 °C).
/// - The divisions by powers of two are arithmetic shifts (rounding down, also for negative values): the
///   datasheets' worked examples need them (the -30BA's TEMP 1981 and SENS 1145816755 from dT −5962; C's
///   truncating `/` gives 1982 and 1145816756). All in `Int64` with wrapping operations, so no PROM or raw
///   value can trap (real ones stay below 2⁵⁸, the datasheet's widest intermediate).
///
/// The CRC-4 (``crc4(prom:)``) is the datasheets' "Cyclic redundancy check" code (TE application note
/// AN520's, for seven words): word 0's CRC nibble cleared, an eighth word of 0, polynomial 0x3000 over the
/// sixteen bytes, most significant first.
///
/// Threading: a value, any.
public struct MS5837Compensation: Sendable, Equatable {
    /// C1, pressure sensitivity SENS_T1.
    public var c1: UInt16
    /// C2, pressure offset OFF_T1.
    public var c2: UInt16
    /// C3, temperature coefficient of the sensitivity TCS.
    public var c3: UInt16
    /// C4, temperature coefficient of the offset TCO.
    public var c4: UInt16
    /// C5, reference temperature T_REF.
    public var c5: UInt16
    /// C6, temperature coefficient of the temperature TEMPSENS.
    public var c6: UInt16
    /// Which part's formulas apply.
    public var variant: MS5837Variant

    /// The first-order values of one conversion pair, in the datasheet's units.
    public struct FirstOrder: Sendable, Equatable {
        /// dT = D2 − C5·2⁸.
        public var dT: Int64
        /// TEMP, 0.01 °C.
        public var temperature: Int64
        /// OFF.
        public var offset: Int64
        /// SENS.
        public var sensitivity: Int64
        /// P, in the part's unit (``MS5837Variant/pascalsPerUnit``).
        public var pressure: Int64
    }

    /// A compensated measurement.
    public struct Output: Sendable, Equatable {
        /// TEMP after the second order, 0.01 °C.
        public var temperature: Int64
        /// P after the second order, in the part's unit (0.1 mbar on a -30BA, 0.01 mbar on a -02BA).
        public var pressure: Int64
        /// The pressure, Pa.
        public var pascals: Double
        /// The temperature, °C.
        public var celsius: Double { Double(temperature) / 100 }
    }

    /// The -30BA datasheet's example (typical values): C1 34982, C2 36352, C3 20328, C4 22354, C5 26646,
    /// C6 26146; with D1 4958179 and D2 6815414 the first order gives dT −5962, TEMP 1981 (19.81 °C) and
    /// P 39998 (3999.8 mbar).
    public static let datasheetExample30BA = MS5837Compensation(
        c1: 34982, c2: 36352, c3: 20328, c4: 22354, c5: 26646, c6: 26146, variant: .ms5837_30ba)
    /// The -02BA datasheet's example: C1 46372, C2 43981, C3 29059, C4 27842, C5 31553, C6 28165; with
    /// D1 6465444 and D2 8077636, dT 68, TEMP 2000 (20.00 °C), OFF 5764707214, SENS 3039050829 and
    /// P 110002 (1100.02 mbar).
    public static let datasheetExample02BA = MS5837Compensation(
        c1: 46372, c2: 43981, c3: 29059, c4: 27842, c5: 31553, c6: 28165, variant: .ms5837_02ba)

    /// Creates a compensation from C1…C6.
    public init(c1: UInt16, c2: UInt16, c3: UInt16, c4: UInt16, c5: UInt16, c6: UInt16, variant: MS5837Variant) {
        (self.c1, self.c2, self.c3, self.c4, self.c5, self.c6) = (c1, c2, c3, c4, c5, c6)
        self.variant = variant
    }

    /// Decodes and checks PROM words 0…6.
    /// - Parameters:
    ///   - prom: the words as read (word 0: CRC and version; 1…6: C1…C6).
    ///   - variant: the part whose formulas to use.
    /// - Throws: ``MS5837PROMError`` when the words are no MS5837's calibration (see ``check(prom:)``).
    public init(prom: [UInt16], variant: MS5837Variant) throws(MS5837PROMError) {
        if let problem = Self.check(prom: prom) { throw problem }
        self.init(c1: prom[1], c2: prom[2], c3: prom[3], c4: prom[4], c5: prom[5], c6: prom[6], variant: variant)
    }

    /// What is wrong with PROM words 0…6 as an MS5837's calibration, or `nil` when they are one: seven
    /// words, C1…C6 neither all 0 nor all 0xFFFF (what an empty bus, a chip still reloading or another
    /// chip answers; such words can pass the CRC), and the CRC-4 in word 0 bits 15…12 matching.
    public static func check(prom: [UInt16]) -> MS5837PROMError? {
        guard prom.count == MS5837Commands.promWords else { return .wrongLength(prom.count) }
        let coefficients = prom[1...]
        if coefficients.allSatisfy({ $0 == 0 }) || coefficients.allSatisfy({ $0 == 0xFFFF }) { return .blank }
        let stored = UInt8(prom[0] >> 12), computed = crc4(prom: prom)
        return stored == computed ? nil : .crcMismatch(stored: stored, computed: computed)
    }

    /// The version field of PROM word 0, bits 11…5 (see ``MS5837Variant/detect(version:)``).
    public static func version(ofWord0 word: UInt16) -> UInt8 {
        UInt8(word >> 5 & 0x7F)
    }

    /// The CRC-4 of PROM words 0…6 as the MS5837 datasheets compute it: word 0's bits 15…12 cleared and
    /// an eighth word of 0 appended (see ``crc4(words:)``).
    /// - Parameter prom: at least seven words; only the first seven count.
    /// - Returns: 0…15, to compare with word 0 bits 15…12.
    public static func crc4(prom: [UInt16]) -> UInt8 {
        var words = Array(prom.prefix(MS5837Commands.promWords))
        words[0] &= 0x0FFF
        words += [UInt16](repeating: 0, count: 8 - words.count)
        return crc4(words: words)
    }

    /// The CRC-4 core of TE's AN520 over eight 16-bit words: each byte, most significant first, into a
    /// 16-bit remainder shifted left with polynomial 0x3000; the result is the remainder's top four bits.
    /// The caller clears the CRC's own bits first (AN520's MS56xx form clears word 7's low byte; the
    /// MS5837's, ``crc4(prom:)``, word 0's top nibble).
    /// - Parameter words: eight words.
    public static func crc4(words: [UInt16]) -> UInt8 {
        var remainder: UInt16 = 0
        for index in 0..<16 {
            let word = words[index / 2]
            remainder ^= index % 2 == 1 ? word & 0x00FF : word >> 8
            for _ in 0..<8 {
                remainder = remainder & 0x8000 != 0 ? (remainder << 1) ^ 0x3000 : remainder << 1
            }
        }
        return UInt8(remainder >> 12 & 0x0F)
    }

    /// The first-order compensation of a conversion pair.
    /// - Parameters:
    ///   - d1: the 24-bit raw pressure.
    ///   - d2: the 24-bit raw temperature.
    public func firstOrder(d1: UInt32, d2: UInt32) -> FirstOrder {
        let dT = Int64(d2) &- Int64(c5) << 8
        let temperature = 2000 &+ (dT &* Int64(c6)) >> 23
        let offset = Int64(c2) << variant.offsetShift &+ (Int64(c4) &* dT) >> variant.offsetTemperatureShift
        let sensitivity = Int64(c1) << variant.sensitivityShift &+ (Int64(c3) &* dT) >> variant.sensitivityTemperatureShift
        return FirstOrder(
            dT: dT, temperature: temperature, offset: offset, sensitivity: sensitivity,
            pressure: pressure(d1: d1, offset: offset, sensitivity: sensitivity))
    }

    /// The compensated measurement of a conversion pair: first order, then the part's second order.
    /// - Parameters:
    ///   - d1: the 24-bit raw pressure.
    ///   - d2: the 24-bit raw temperature.
    public func compensate(d1: UInt32, d2: UInt32) -> Output {
        let first = firstOrder(d1: d1, d2: d2)
        let terms = secondOrderTerms(dT: first.dT, temperature: first.temperature)
        let pressure = pressure(d1: d1, offset: first.offset &- terms.offset, sensitivity: first.sensitivity &- terms.sensitivity)
        return Output(
            temperature: first.temperature &- terms.temperature, pressure: pressure,
            pascals: Double(pressure) * variant.pascalsPerUnit)
    }

    /// The second-order terms Ti, OFFi and SENSi for a first-order dT and TEMP (see the type).
    public func secondOrderTerms(dT: Int64, temperature: Int64) -> (temperature: Int64, offset: Int64, sensitivity: Int64) {
        let below = temperature &- 2000
        let belowSquared = below &* below
        switch variant.secondOrder {
        case .thirtyBar where temperature < 2000:
            var offset = (3 &* belowSquared) >> 1
            var sensitivity = (5 &* belowSquared) >> 3
            if temperature < -1500 {
                let veryLow = (temperature &+ 1500) &* (temperature &+ 1500)
                offset = offset &+ 7 &* veryLow
                sensitivity = sensitivity &+ 4 &* veryLow
            }
            return ((3 &* dT &* dT) >> 33, offset, sensitivity)
        case .thirtyBar:
            return ((2 &* dT &* dT) >> 37, belowSquared >> 4, 0)
        case .twoBar where temperature < 2000:
            return ((11 &* dT &* dT) >> 35, (31 &* belowSquared) >> 3, (63 &* belowSquared) >> 5)
        case .twoBar:
            return (0, 0, 0)
        }
    }

    /// P = (D1·SENS / 2²¹ − OFF) / 2^pressureShift.
    private func pressure(d1: UInt32, offset: Int64, sensitivity: Int64) -> Int64 {
        ((Int64(d1) &* sensitivity) >> 21 &- offset) >> variant.pressureShift
    }
}

/// Why PROM words are not an MS5837's calibration.
public enum MS5837PROMError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not seven words.
    case wrongLength(Int)
    /// C1…C6 all 0 or all 0xFFFF: nothing that holds a calibration answered.
    case blank
    /// The CRC-4 in word 0 bits 15…12 is not the words' (a corrupt PROM, a bad read, or another chip).
    case crcMismatch(stored: UInt8, computed: UInt8)

    /// One line: what was read and why it is not a calibration.
    public var description: String {
        switch self {
        case .wrongLength(let count): "the PROM read gave \(count) words, not 7"
        case .blank: "the PROM's C1…C6 read all 0 or all 0xFFFF (no calibration)"
        case .crcMismatch(let stored, let computed):
            "the PROM's CRC-4 is \(stored) but its words give \(computed) (corrupt calibration or not an MS5837)"
        }
    }
}
