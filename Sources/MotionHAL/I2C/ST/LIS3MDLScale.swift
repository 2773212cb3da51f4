/// A full scale of the LIS3MDL magnetometer (CTRL_REG2 FS, bits 6:5).
///
/// Sensitivities from datasheet DocID024204 table 3 (GN: 6842, 3421, 2281 and 1711 LSB/gauss); Linux
/// `st_magn_core.c` gives the same as 146, 292, 438 and 584 µgauss/LSB. 1 gauss = 100 µT.
public enum LIS3MDLScale: Sendable, CaseIterable {
    /// ±4 gauss (±400 µT), 6842 LSB/gauss: the default, ten times the Earth's field.
    case gauss4
    /// ±8 gauss, 3421 LSB/gauss.
    case gauss8
    /// ±12 gauss, 2281 LSB/gauss.
    case gauss12
    /// ±16 gauss, 1711 LSB/gauss.
    case gauss16

    /// The FS code, already shifted into bits 6:5 of CTRL_REG2.
    public var fieldValue: UInt8 {
        switch self {
        case .gauss4: 0b00 << 5
        case .gauss8: 0b01 << 5
        case .gauss12: 0b10 << 5
        case .gauss16: 0b11 << 5
        }
    }

    /// Output counts per gauss.
    public var countsPerGauss: Double {
        switch self {
        case .gauss4: 6842
        case .gauss8: 3421
        case .gauss12: 2281
        case .gauss16: 1711
        }
    }

    /// One LSB of the output, µT.
    public var sensitivity: Double { 100 / countsPerGauss }

    /// The largest reading the 16-bit output can hold, µT (32767 LSB: ±4 gauss reads up to 478.9 µT).
    public var range: Double { 32767 * sensitivity }
}
