/// Remote configuration (`remote_config` in the configuration file): whether the agent takes run-time
/// configuration documents on `{base}/config/set`, and the state file that keeps them across restarts.
public struct RemoteConfigurationSettings: Sendable, Equatable {
    /// Whether documents on `{base}/config/set` are applied (`false`: each is refused, and the retained
    /// `{base}/config` still reports the configuration in force).
    public var enabled: Bool
    /// The file the accepted documents are kept in (written whole to a temporary file, synced and renamed
    /// over the old one, so that a power cut leaves the old or the new one); `nil`: changes hold until the
    /// agent stops.
    public var stateFile: String?

    /// Creates the settings: enabled, without a state file, by default.
    public init(enabled: Bool = true, stateFile: String? = nil) {
        self.enabled = enabled
        self.stateFile = stateFile
    }

    /// Reads the configuration's `remote_config` object: `{"enabled": BOOL, "state_file": PATH}`.
    /// - Throws: ``ConfigurationError`` naming the field.
    static func parse(from root: ConfigurationReader) throws(ConfigurationError) -> RemoteConfigurationSettings {
        guard let entry = try root.object("remote_config") else { return RemoteConfigurationSettings() }
        try entry.rejectUnknownKeys(["enabled", "state_file"])
        return RemoteConfigurationSettings(enabled: try entry.bool("enabled") ?? true, stateFile: try entry.string("state_file"))
    }

    /// Checks that the state file is named. Whether it can be written is not a configuration error: a
    /// directory that is missing now may be mounted later, and the agent keeps documents in memory meanwhile
    /// (``RemoteConfigurationStore``; ``AgentConfiguration/storageWarnings`` says so before a start).
    /// - Throws: ``ConfigurationError`` for `remote_config.state_file`.
    func validate() throws(ConfigurationError) {
        guard let stateFile, stateFile.isEmpty else { return }
        throw ConfigurationError(fieldPath: "remote_config.state_file", reason: "must name a file")
    }
}
