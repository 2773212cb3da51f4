import MotionContract

/// Home Assistant MQTT discovery (the `home_assistant` object of the configuration): off unless asked.
public struct HomeAssistantSettings: Sendable, Equatable {
    /// Whether the agent publishes retained discovery messages for its active services.
    public var discovery: Bool
    /// Home Assistant's discovery prefix.
    public var discoveryPrefix: String

    /// Creates the settings; discovery is off by default, under Home Assistant's default prefix.
    public init(discovery: Bool = false, discoveryPrefix: String = "homeassistant") {
        self.discovery = discovery
        self.discoveryPrefix = discoveryPrefix
    }

    static func parse(from root: ConfigurationReader) throws(ConfigurationError) -> HomeAssistantSettings {
        guard let entry = try root.object("home_assistant") else { return HomeAssistantSettings() }
        try entry.rejectUnknownKeys(["discovery", "discovery_prefix"])
        let settings = HomeAssistantSettings(
            discovery: try entry.bool("discovery") ?? false, discoveryPrefix: try entry.string("discovery_prefix") ?? "homeassistant")
        let prefix = settings.discoveryPrefix
        guard TopicLayout.isTopicPrefix(prefix), !prefix.hasPrefix("$") else {
            throw ConfigurationError(
                fieldPath: "home_assistant.discovery_prefix",
                reason: "must be a topic prefix without wildcards, leading $ or slashes at either end")
        }
        return settings
    }
}
