/// A full scale of the LSM6DSOX gyroscope (CTRL2_G FS_G, bits 3:2, and FS_125, bit 1).
///
/// Sensitivities from datasheet DS13082 table 2 "Mechanical characteristics" (G_So: 4.375, 8.75, 17.50, 35 and
/// 70 mdps/LSB), the same as Linux `st_lsm6dsx_core.c` (`IIO_DEGREE_TO_RAD(8750)` … `(70000)` µdps/LSB). ST's
/// sensitivities leave headroom above the nominal scale: at ±2000 dps the 16-bit output reaches 2293 dps.
public enum LSM6DSOXGyroscopeScale: Sendable, CaseIterable {
    /// ±125 dps, 4.375 mdps/LSB.
    case dps125
    /// ±250 dps, 8.75 mdps/LSB.
    case dps250
    /// ±500 dps, 17.5 mdps/LSB.
    case dps500
    /// ±1000 dps, 35 mdps/LSB.
    case dps1000
    /// ±2000 dps, 70 mdps/LSB (the driver's default: no hand-held motion saturates it).
    case dps2000

    /// The FS_G and FS_125 bits, already in place in CTRL2_G (bits 3:1).
    public var fieldValue: UInt8 {
        switch self {
        case .dps125: 0b001 << 1
        case .dps250: 0b000 << 1
        case .dps500: 0b010 << 1
        case .dps1000: 0b100 << 1
        case .dps2000: 0b110 << 1
        }
    }

    /// The nominal full scale, degrees per second.
    public var nominalRange: Double {
        switch self {
        case .dps125: 125
        case .dps250: 250
        case .dps500: 500
        case .dps1000: 1000
        case .dps2000: 2000
        }
    }

    /// One LSB of the output, rad/s.
    public var sensitivity: Double {
        let milliDegreesPerSecond: Double = switch self {
        case .dps125: 4.375
        case .dps250: 8.75
        case .dps500: 17.5
        case .dps1000: 35
        case .dps2000: 70
        }
        return milliDegreesPerSecond * 1e-3 * Double.pi / 180
    }

    /// The largest reading the 16-bit output can hold, rad/s (32767 LSB).
    public var range: Double { 32767 * sensitivity }
}
