/// The four motion services the agent bridges, one per CoreMotion service and MQTT data topic.
public enum MotionService: String, CaseIterable, Sendable, Codable {
    /// Raw accelerometer, published in g (`CMAccelerometerData`).
    case accelerometer
    /// Raw gyroscope, published in rad/s (`CMGyroData`).
    case gyro
    /// Raw magnetometer, published in µT (`CMMagnetometerData`).
    case magnetometer
    /// Fused attitude, gravity, user acceleration and calibrated field (`CMDeviceMotion`).
    case deviceMotion = "device-motion"

    /// The topic segment of this service: `{base}/{topicName}`.
    public var topicName: String { rawValue }

    /// The service whose topic segment is `name`, if any.
    public init?(topicName name: String) { self.init(rawValue: name) }

    /// Hashes the case rather than its raw string (the default for a `String`-backed enum): the agent
    /// looks services up in dictionaries for every message it publishes.
    public func hash(into hasher: inout Hasher) {
        let ordinal = switch self {
        case .accelerometer: 0
        case .gyro: 1
        case .magnetometer: 2
        case .deviceMotion: 3
        }
        hasher.combine(ordinal)
    }
}
