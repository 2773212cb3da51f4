import MQTT

/// What the agent knows about one service while it runs.
struct ServiceState: Sendable {
    /// Whether the service should publish (it may still be unable to, see `error`).
    var active: Bool
    /// Configured interval between messages, s.
    var interval: Double
    /// Device motion only: the reference frame (Apple's case name).
    var referenceFrame: String?
    /// Quality of service of the data topic.
    var qos: MQTTQoS
    /// The `seq` of the last message published on the data topic.
    var sequence: UInt64 = 0
    /// Why the service cannot run, when it cannot.
    var error: String?

    init(settings: ServiceSettings) {
        active = settings.enabled
        interval = settings.interval
        referenceFrame = settings.referenceFrame
        qos = MQTTQoS(rawValue: Int32(settings.qos)) ?? .atMostOnce
    }
}
