/// How one service's data topic is published.
public struct ServiceSettings: Sendable, Equatable {
    /// Whether the service starts when the agent starts (it can be started and stopped at run time).
    public var enabled: Bool
    /// Messages per second on the data topic, Hz; capped by the device's sample rate.
    public var rateHz: Double
    /// MQTT quality of service of the data topic (0, 1 or 2).
    public var qos: Int
    /// Device motion only: the reference frame, as Apple's case name (`xMagneticNorthZVertical`, …).
    public var referenceFrame: String?

    /// Creates settings.
    /// - Parameters:
    ///   - enabled: start the service with the agent.
    ///   - rateHz: messages per second, Hz.
    ///   - qos: MQTT quality of service, 0…2.
    ///   - referenceFrame: device motion's reference frame (Apple's case name), or `nil`.
    public init(enabled: Bool = true, rateHz: Double, qos: Int = 0, referenceFrame: String? = nil) {
        self.enabled = enabled
        self.rateHz = rateHz
        self.qos = qos
        self.referenceFrame = referenceFrame
    }

    /// The interval between messages, s.
    public var interval: Double { 1 / rateHz }

    /// The defaults of each service: 50 Hz for the motion topics, 20 Hz for the magnetometer, QoS 0.
    public static func defaults(for service: MotionService) -> ServiceSettings {
        switch service {
        case .accelerometer, .gyro: ServiceSettings(rateHz: 50)
        case .magnetometer: ServiceSettings(rateHz: 20)
        case .deviceMotion: ServiceSettings(rateHz: 50, referenceFrame: ReferenceFrameName.defaultFrame)
        }
    }
}
