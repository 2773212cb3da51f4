import MotionContract

/// How one service's data topic is published.
public struct ServiceSettings: Sendable, Equatable {
    /// Whether the service starts when the agent starts (it can be started and stopped at run time).
    public var enabled: Bool
    /// The topic's rate and reduction: interval (s), `latest` or `mean`, batch size, deadband, heartbeat.
    public var sampling: TopicSamplingSettings
    /// MQTT quality of service of the data topic (0, 1 or 2).
    public var qos: Int
    /// Device motion only: the reference frame (written as Apple's case name, `xMagneticNorthZVertical`, …).
    public var referenceFrame: AttitudeReferenceFrame?
    /// MQTT 5 message expiry of data messages, s; `nil` for none (data older than this is not delivered
    /// to a subscriber that comes late or catches up after an outage).
    public var messageExpiry: UInt32?
    /// How the data topic's payloads are written: JSON (the default) or CBOR.
    public var format: PayloadFormat = .json
    /// The vibration service only: what it measures (nil for the other services).
    public var vibration: VibrationServiceSettings?

    /// Creates settings.
    /// - Parameters:
    ///   - enabled: start the service with the agent.
    ///   - sampling: rate and reduction of the topic.
    ///   - qos: MQTT quality of service, 0…2.
    ///   - referenceFrame: device motion's reference frame, or `nil`.
    ///   - messageExpiry: MQTT 5 message expiry of data messages, s, or `nil`.
    public init(
        enabled: Bool = true, sampling: TopicSamplingSettings, qos: Int = 0, referenceFrame: AttitudeReferenceFrame? = nil,
        messageExpiry: UInt32? = nil
    ) {
        self.enabled = enabled
        self.sampling = sampling
        self.qos = qos
        self.referenceFrame = referenceFrame
        self.messageExpiry = messageExpiry
    }

    /// Creates settings for `latest` sampling at `rateHz` messages per second.
    public init(enabled: Bool = true, rateHz: Double, qos: Int = 0, referenceFrame: AttitudeReferenceFrame? = nil) {
        self.init(enabled: enabled, sampling: TopicSamplingSettings(interval: 1 / rateHz), qos: qos, referenceFrame: referenceFrame)
    }

    /// Messages per second, Hz.
    public var rateHz: Double { 1 / sampling.interval }

    /// The intervals a service's topic may be configured for, s (1 kHz down to once a day), whether the
    /// file or a remote document gives `interval` or `rate_hz` (which is held to 1/86400…1000 Hz).
    public static let intervalRange: ClosedRange<Double> = 0.001...86_400

    /// The defaults of each service, all `latest` at QoS 0: 50 Hz for the motion topics, 20 Hz for the
    /// magnetometer; steps and activity looked at every second but published only when they change, and at
    /// least once a minute (deadband 0, heartbeat 60 s); altitude at 1 Hz; vibration off (it reads the
    /// accelerometer at its full rate), a summary every 10 s when on.
    public static func defaults(for service: MotionService) -> ServiceSettings {
        switch service {
        case .accelerometer, .gyro: ServiceSettings(rateHz: 50)
        case .magnetometer: ServiceSettings(rateHz: 20)
        case .deviceMotion: ServiceSettings(rateHz: 50, referenceFrame: .defaultFrame)
        case .steps, .activity: ServiceSettings(sampling: TopicSamplingSettings(interval: 1, deadband: 0, heartbeat: 60))
        case .altitude: ServiceSettings(rateHz: 1)
        case .vibration:
            {
                var settings = ServiceSettings(enabled: false, sampling: TopicSamplingSettings(interval: 10))
                settings.vibration = VibrationServiceSettings()
                return settings
            }()
        }
    }
}
