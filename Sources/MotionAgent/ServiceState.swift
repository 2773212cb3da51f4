import MQTT

/// What the agent knows about one service while it runs.
struct ServiceState: Sendable {
    /// The settings in force (from the configuration, changed by commands and reloads).
    var settings: ServiceSettings
    /// Whether the service should publish (it may still be unable to, see `error`).
    var active: Bool
    /// Why the service cannot deliver data now (a sensor fault, an unusable frame), when it cannot.
    var error: String?

    init(settings: ServiceSettings) {
        self.settings = settings
        active = settings.enabled
    }

    /// The MQTT quality of service of the data topic.
    var qos: MQTTQoS { MQTTQoS(rawValue: Int32(settings.qos)) ?? .atMostOnce }
}
