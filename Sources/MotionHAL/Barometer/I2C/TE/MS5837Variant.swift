/// What differs between the MS5837 parts ``MS5837Driver`` runs: a table, not copies of code.
///
/// Sources: TE datasheets MS5837-30BA (10/2015; REV C2 12/2019: the version field, OSR up to 4096) and
/// MS5837-02BA (09/2017), "Pressure and temperature calculation" and "Second order temperature
/// compensation"; Blue Robotics' MS5837 libraries (Python and Arduino: the version values 0x1A, 0x00 and
/// 0x15, and the second-order terms as they implement them).
///
/// The two parts share the protocol, the PROM layout and the CRC-4; they differ in the exponents of the
/// first-order formulas, in the unit of the result and in the second-order terms (``secondOrder``). PROM
/// word 0 bits 11…5 are a version field: 0x1A on a -30BA26, 0x00 (-02BA01) or 0x15 (-02BA21) on a -02BA;
/// a chip with another value cannot be told apart and is only accepted when named (`chip=ms5837-30ba` or
/// `chip=ms5837-02ba`).
///
/// Threading: a value, any.
public struct MS5837Variant: Sendable, Equatable {
    /// Which second-order correction the datasheet gives.
    public enum SecondOrder: Sendable, Equatable {
        /// -30BA: below 20 °C, more below −15 °C, and above 20 °C.
        case thirtyBar
        /// -02BA: below 20 °C only.
        case twoBar
    }

    /// The part number, e.g. `MS5837-30BA`.
    public var name: String
    /// The `chip=` name that selects this part whatever its version field says, e.g. `ms5837-30ba`.
    public var modelName: String
    /// The values of PROM word 0 bits 11…5 that identify the part.
    public var versions: [UInt8]
    /// The pressure range the datasheet gives for the compensated output, Pa.
    public var pressureRange: ClosedRange<Double>
    /// The operating temperature range, °C.
    public var temperatureRange: ClosedRange<Double>
    /// Pa per unit of the compensated integer pressure: 10 (0.1 mbar) or 1 (0.01 mbar).
    public var pascalsPerUnit: Double
    /// The largest oversampling the part's newest datasheet lists.
    public var maximumOversampling: MS5837Oversampling
    /// OFF = C2·2^offsetShift + C4·dT / 2^offsetTemperatureShift.
    public var offsetShift: Int
    /// See ``offsetShift``.
    public var offsetTemperatureShift: Int
    /// SENS = C1·2^sensitivityShift + C3·dT / 2^sensitivityTemperatureShift.
    public var sensitivityShift: Int
    /// See ``sensitivityShift``.
    public var sensitivityTemperatureShift: Int
    /// P = (D1·SENS / 2^21 − OFF) / 2^pressureShift.
    public var pressureShift: Int
    /// The second-order terms.
    public var secondOrder: SecondOrder

    /// The MS5837-30BA: 0…30 bar in 0.1 mbar, −20…85 °C, version 0x1A, OSR up to 4096.
    public static let ms5837_30ba = MS5837Variant(
        name: "MS5837-30BA", modelName: "ms5837-30ba", versions: [0x1A], pressureRange: 0...3_000_000,
        temperatureRange: -20...85, pascalsPerUnit: 10, maximumOversampling: .x4096, offsetShift: 16,
        offsetTemperatureShift: 7, sensitivityShift: 15, sensitivityTemperatureShift: 8, pressureShift: 13,
        secondOrder: .thirtyBar)
    /// The MS5837-02BA: 10…1200 mbar in 0.01 mbar (the range its datasheet's calculation table gives),
    /// −20…85 °C, versions 0x00 and 0x15, OSR up to 8192.
    public static let ms5837_02ba = MS5837Variant(
        name: "MS5837-02BA", modelName: "ms5837-02ba", versions: [0x00, 0x15], pressureRange: 1_000...120_000,
        temperatureRange: -20...85, pascalsPerUnit: 1, maximumOversampling: .x8192, offsetShift: 17,
        offsetTemperatureShift: 6, sensitivityShift: 16, sensitivityTemperatureShift: 7, pressureShift: 15,
        secondOrder: .twoBar)

    /// Both parts, in the order auto-detection tries them.
    public static let all: [MS5837Variant] = [.ms5837_30ba, .ms5837_02ba]

    /// The part a version field names, or `nil` for a value neither datasheet gives.
    /// - Parameter version: PROM word 0 bits 11…5.
    public static func detect(version: UInt8) -> MS5837Variant? {
        all.first { $0.versions.contains(version) }
    }

    /// The rates the driver offers, Hz: a temperature and a pressure conversion per reading, each at most
    /// 0.4 of the period (see ``oversampling(forRate:)``), so 100 Hz at OSR 1024.
    public static let supportedSampleRates: ClosedRange<Double> = 1...100

    /// The largest oversampling whose conversion takes at most 0.4 of a period at `rate`: the driver
    /// polls twice a period and converts temperature, then pressure, so each must end before the next
    /// poll with room for its lateness. 25 Hz: 4096; 50 Hz: 2048; 100 Hz: 1024; 10 Hz: 8192 on a -02BA.
    /// - Parameter rate: readings a second, Hz.
    public func oversampling(forRate rate: Double) -> MS5837Oversampling {
        let budget = 0.4 / rate
        return MS5837Oversampling.allCases.last { $0 <= maximumOversampling && $0.maximumConversionTime <= budget } ?? .x256
    }
}
