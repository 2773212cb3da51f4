/// The gyroscope full-scale settings of the MPU-6050 / MPU-6500 family (GYRO_CONFIG FS_SEL), raw value the
/// register field.
///
/// Sensitivities from the gyroscope specifications of the MPU-6050 (PS-MPU-6000A) and the MPU-9250
/// (PS-MPU-9250A): 131, 65.5, 32.8 and 16.4 LSB/(°/s).
public enum InvenSenseGyroscopeRange: UInt8, Sendable, CaseIterable {
    /// ±250 °/s.
    case dps250 = 0
    /// ±500 °/s.
    case dps500 = 1
    /// ±1000 °/s.
    case dps1000 = 2
    /// ±2000 °/s.
    case dps2000 = 3

    /// LSB per °/s.
    public var sensitivity: Double {
        switch self {
        case .dps250: 131
        case .dps500: 65.5
        case .dps1000: 32.8
        case .dps2000: 16.4
        }
    }

    /// rad/s per LSB.
    public var scale: Double { .pi / 180 / sensitivity }

    /// The largest reading the chip can output, 32767 LSB, in rad/s.
    public var fullScale: Double { 32767 * scale }
}
