/// What differs between the ST barometers ``STPressureDriver`` runs: a table, not copies of code.
///
/// Sources: LPS22HB datasheet DocID027083 §9.5-9.6 (CTRL_REG1: ODR bits 6:4, EN_LPFP 3, LPFP_CFG 2, BDU 1;
/// CTRL_REG2 IF_ADD_INC bit 4 set at reset); LPS22DF datasheet DS13833 §9.5-9.7 (CTRL_REG1: ODR bits 6:3,
/// AVG bits 2:0; CTRL_REG2 BDU bit 3; CTRL_REG3 IF_ADD_INC bit 0 set at reset); Linux `st_pressure_core.c`
/// (ODR tables, BDU 0x10 mask 0x02 and 0x11 mask 0x08).
public struct STPressureVariant: Sendable, Equatable {
    /// The part number, e.g. `LPS22HB`.
    public var name: String
    /// The value of WHO_AM_I.
    public var identity: UInt8
    /// The output data rate of each ODR code from 1, Hz (code 0 is power-down / one-shot).
    public var dataRates: [Double]
    /// Where the ODR field starts in CTRL_REG1 (bit number).
    var dataRateShift: UInt8
    /// The register holding BDU (block data update: the outputs hold a value until all of it was read).
    var blockDataUpdateRegister: UInt8
    /// BDU's bit in that register.
    var blockDataUpdate: UInt8
    /// The AVG code (CTRL_REG1 bits 2:0) used at each ODR code from 1; empty for a chip without AVG. A
    /// choice of this driver: more averaging (less noise) at the lower rates, 4 samples at 200 Hz.
    var averaging: [UInt8]

    /// The LPS22HB: WHO_AM_I 0xB1, 1, 10, 25, 50 and 75 Hz.
    public static let lps22hb = STPressureVariant(
        name: "LPS22HB", identity: 0xB1, dataRates: [1, 10, 25, 50, 75], dataRateShift: 4,
        blockDataUpdateRegister: STPressureRegisterMap.control1, blockDataUpdate: 1 << 1, averaging: [])
    /// The LPS22DF: WHO_AM_I 0xB4, 1, 4, 10, 25, 50, 75, 100 and 200 Hz; averaging 64 samples up to 10 Hz,
    /// 32 at 25 Hz, 16 at 50 Hz, 8 at 75 and 100 Hz, 4 at 200 Hz.
    public static let lps22df = STPressureVariant(
        name: "LPS22DF", identity: 0xB4, dataRates: [1, 4, 10, 25, 50, 75, 100, 200], dataRateShift: 3,
        blockDataUpdateRegister: STPressureRegisterMap.control2, blockDataUpdate: 1 << 3,
        averaging: [4, 4, 4, 3, 2, 1, 1, 0])

    /// The rates the chip runs at, Hz: its slowest to its fastest ODR.
    public var supportedSampleRates: ClosedRange<Double> { dataRates[0]...dataRates[dataRates.count - 1] }

    /// The slowest ODR at least `sampleRate` (the fastest when none is).
    /// - Parameter sampleRate: Hz.
    /// - Returns: the ODR code (from 1) and its rate, Hz.
    public func dataRate(atLeast sampleRate: Double) -> (code: UInt8, rate: Double) {
        let index = dataRates.firstIndex { $0 >= sampleRate } ?? dataRates.count - 1
        return (UInt8(index + 1), dataRates[index])
    }

    /// The register writes that start continuous conversions at ODR `code`, in order: BDU where it is not in
    /// CTRL_REG1, then CTRL_REG1 (ODR, and BDU or AVG) last.
    func configurationWrites(dataRateCode code: UInt8) -> [(register: UInt8, value: UInt8)] {
        var control1 = code << dataRateShift
        var writes: [(register: UInt8, value: UInt8)] = []
        if blockDataUpdateRegister == STPressureRegisterMap.control1 {
            control1 |= blockDataUpdate
        } else {
            writes.append((blockDataUpdateRegister, blockDataUpdate))
        }
        if !averaging.isEmpty { control1 |= averaging[Int(code) - 1] }
        writes.append((STPressureRegisterMap.control1, control1))
        return writes
    }
}
