/// The sensors an IMU device carries.
public struct IMUSensors: OptionSet, Sendable, Hashable {
    /// The raw bit mask.
    public let rawValue: UInt8

    /// Creates a set from its bit mask.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// A three-axis accelerometer (m/s²).
    public static let accelerometer = IMUSensors(rawValue: 1 << 0)
    /// A three-axis gyroscope (rad/s).
    public static let gyroscope = IMUSensors(rawValue: 1 << 1)
    /// A three-axis magnetometer (µT).
    public static let magnetometer = IMUSensors(rawValue: 1 << 2)
    /// All three sensors: a 9-axis IMU.
    public static let all: IMUSensors = [.accelerometer, .gyroscope, .magnetometer]
}
