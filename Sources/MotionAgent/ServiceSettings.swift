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
    /// How samples are reduced to the topic's rate: `latest` (the newest sample) or `mean` (the average over
    /// the interval: an anti-aliasing decimator).
    public var mode: String = "latest"
    /// Down-sampled values per message; above 1 the payload is a batch `{"seq":n,"samples":[…]}`.
    public var batchSize: Int = 1
    /// Publish only when the value moved more than this since the last message (the topic's unit; device
    /// motion: attitude angle in rad); `nil` publishes every value.
    public var deadband: Double?
    /// With a deadband: publish at least every `heartbeat` seconds anyway.
    public var heartbeat: Double?
    /// MQTT 5 message expiry of data messages, s; `nil` for none (data older than this is not delivered
    /// to a subscriber that comes late or catches up after an outage).
    public var messageExpiry: UInt32?

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

    /// The sampling modes a service can use.
    public static let modes = ["latest", "mean"]

    /// Checks mode, batch, deadband and heartbeat, naming the field under `fieldPath`.
    func validateSampling(fieldPath: String) throws(ConfigurationError) {
        if !Self.modes.contains(mode) {
            throw ConfigurationError(fieldPath: "\(fieldPath).mode", reason: "\"\(mode)\" is not one of \(Self.modes.joined(separator: ", "))")
        }
        if !(1...1_000).contains(batchSize) {
            throw ConfigurationError(fieldPath: "\(fieldPath).batch", reason: "must be 1…1000 samples per message")
        }
        if let deadband, !(deadband >= 0) {
            throw ConfigurationError(fieldPath: "\(fieldPath).deadband", reason: "must be a number >= 0")
        }
        if let heartbeat {
            guard deadband != nil else {
                throw ConfigurationError(fieldPath: "\(fieldPath).heartbeat", reason: "needs a deadband")
            }
            guard heartbeat > 0 && heartbeat <= 86_400 else {
                throw ConfigurationError(fieldPath: "\(fieldPath).heartbeat", reason: "must be 0 < heartbeat <= 86400 seconds")
            }
        }
    }

    /// The defaults of each service: 50 Hz for the motion topics, 20 Hz for the magnetometer, QoS 0.
    public static func defaults(for service: MotionService) -> ServiceSettings {
        switch service {
        case .accelerometer, .gyro: ServiceSettings(rateHz: 50)
        case .magnetometer: ServiceSettings(rateHz: 20)
        case .deviceMotion: ServiceSettings(rateHz: 50, referenceFrame: ReferenceFrameName.defaultFrame)
        }
    }
}
