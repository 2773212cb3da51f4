import MQTT

/// What the agent knows about one service while it runs: a value, changed by commands
/// (``applying(_:for:unavailableReason:availableFrames:)``), reloads and faults.
public struct ServiceState: Sendable, Equatable {
    /// The settings in force (from the configuration, changed by commands and reloads).
    public var settings: ServiceSettings
    /// Whether the service should publish (it may still be unable to, see `error`).
    public var active: Bool
    /// Why the service cannot deliver data now (a sensor fault, an unusable frame), when it cannot.
    public var error: String?

    /// The state of a service just configured: active when its settings enable it, no error.
    public init(settings: ServiceSettings) {
        self.settings = settings
        active = settings.enabled
    }

    /// The MQTT quality of service of the data topic.
    var qos: MQTTQoS { MQTTQoS(rawValue: Int32(settings.qos)) ?? .atMostOnce }
}
