import MotionMath
/// A full scale of the LSM6DSOX accelerometer (CTRL1_XL FS_XL, bits 3:2).
///
/// Sensitivities from datasheet DS13082 table 2 "Mechanical characteristics" (LA_So: 0.061, 0.122, 0.244 and
/// 0.488 mg/LSB), the same as Linux `st_lsm6dsx_core.c` (`IIO_G_TO_M_S_2(61)` … `(488)` µg/LSB). The codes are
/// not in order of size: 00 ±2 g, 10 ±4 g, 11 ±8 g, 01 ±16 g.
public enum LSM6DSOXAccelerometerScale: Sendable, CaseIterable {
    /// ±2 g, 0.061 mg/LSB.
    case g2
    /// ±4 g, 0.122 mg/LSB.
    case g4
    /// ±8 g, 0.244 mg/LSB (the driver's default: a board that is handled or shaken stays inside it).
    case g8
    /// ±16 g, 0.488 mg/LSB.
    case g16

    /// The FS_XL code, already shifted into bits 3:2 of CTRL1_XL.
    public var fieldValue: UInt8 {
        switch self {
        case .g2: 0b00 << 2
        case .g4: 0b10 << 2
        case .g8: 0b11 << 2
        case .g16: 0b01 << 2
        }
    }

    /// The nominal full scale, g.
    public var nominalRange: Double {
        switch self {
        case .g2: 2
        case .g4: 4
        case .g8: 8
        case .g16: 16
        }
    }

    /// One LSB of the output, m/s².
    public var sensitivity: Double {
        let milliG: Double = switch self {
        case .g2: 0.061
        case .g4: 0.122
        case .g8: 0.244
        case .g16: 0.488
        }
        return milliG * 1e-3 * standardGravity
    }

    /// The largest reading the 16-bit output can hold, m/s² (32767 LSB: ±8 g reads up to 7.995 g).
    public var range: Double { 32767 * sensitivity }
}
