import MotionMath
/// The accelerometer full-scale settings of the MPU-6050 / MPU-6500 family (ACCEL_CONFIG AFS_SEL), raw value
/// the register field.
///
/// Sensitivities from the accelerometer specifications of the MPU-6050 (PS-MPU-6000A) and the MPU-9250
/// (PS-MPU-9250A): 16384, 8192, 4096 and 2048 LSB/g.
public enum InvenSenseAccelerometerRange: UInt8, Sendable, CaseIterable {
    /// ±2 g.
    case g2 = 0
    /// ±4 g.
    case g4 = 1
    /// ±8 g.
    case g8 = 2
    /// ±16 g.
    case g16 = 3

    /// LSB per g.
    public var sensitivity: Double { 16384 / Double(1 << Int(rawValue)) }

    /// m/s² per LSB.
    public var scale: Double { standardGravity / sensitivity }

    /// The largest reading the chip can output, 32767 LSB, in m/s².
    public var fullScale: Double { 32767 * scale }
}
