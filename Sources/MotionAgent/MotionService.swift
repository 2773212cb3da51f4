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
}
