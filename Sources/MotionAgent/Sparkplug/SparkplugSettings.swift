import MotionContract

/// The Sparkplug B 3.0 edge node (`sparkplug` in the configuration, beside the native contract): the agent as edge
/// node `{edge_node_id}` of group `{group_id}`, each service a device, on a connection of its own beside the
/// native contract's (or instead of it, with `native_contract` false).
///
/// ```json
/// "sparkplug": {"group_id": "plant-1", "edge_node_id": "press-7", "primary_host_id": "scada",
///               "state_file": "/var/lib/motion-agent/sparkplug.state",
///               "store_file": "/var/lib/motion-agent/sparkplug-store.db", "store_limit": 20000}
/// ```
public struct SparkplugSettings: Sendable, Equatable {
    /// The Sparkplug group.
    public var groupID: String
    /// The edge node's ID; `nil`: the device ID.
    public var edgeNodeID: String?
    /// The primary host application whose STATE the node waits for before its births; `nil`: none (born
    /// as soon as connected).
    public var primaryHostID: String?
    /// Whether the native contract is published too (`false`: Sparkplug alone; no native topics, commands
    /// only through NCMD/DCMD).
    public var nativeContract: Bool
    /// The file that keeps the last `bdSeq` across restarts (replaced atomically); `nil`: none, each run
    /// starts at 0 (hosts may then take a late NDEATH of the last run for this one's).
    public var stateFile: String?
    /// The most device metrics kept while the node may not publish (disconnected, or the primary host
    /// offline), forwarded as historical after the next births; the oldest are dropped beyond it.
    public var storeLimit: Int
    /// The SQLite file that keeps the store across restarts and power cuts (changes committed at most every
    /// 0.1 s; a damaged file is set aside); `nil`: the store lives in memory and a restart loses it.
    public var storeFile: String?
    /// The MQTT client ID of the node's connection; `nil`: the native one with `-sparkplug` after it.
    public var clientID: String?

    /// The settings of group `groupID`, with the documented defaults.
    public init(
        groupID: String, edgeNodeID: String? = nil, primaryHostID: String? = nil, nativeContract: Bool = true,
        stateFile: String? = nil, storeLimit: Int = Self.defaultStoreLimit, storeFile: String? = nil, clientID: String? = nil
    ) {
        self.groupID = groupID
        self.edgeNodeID = edgeNodeID
        self.primaryHostID = primaryHostID
        self.nativeContract = nativeContract
        self.stateFile = stateFile
        self.storeLimit = storeLimit
        self.storeFile = storeFile
        self.clientID = clientID
    }

    /// The default ``storeLimit``: about 1 MB (96 bytes a metric, plus names longer than 15 bytes, and a
    /// few dozen bytes a sample), 1.3 MB with a ``storeFile`` (whose rows, 33 bytes a metric of device
    /// motion, are also held to write a damaged file again); some 4 s of device motion at 100 Hz (23
    /// metrics a sample).
    public static let defaultStoreLimit = 10_000

    /// The fields of `sparkplug`.
    static let fields: Set<String> = [
        "group_id", "edge_node_id", "primary_host_id", "native_contract", "state_file", "store_limit", "store_file", "client_id",
    ]

    /// `sparkplug` of `root`, checked; `nil` when absent.
    /// - Throws: ``ConfigurationError`` naming the field (`sparkplug.group_id`, …).
    static func parse(from root: ConfigurationReader) throws(ConfigurationError) -> SparkplugSettings? {
        guard let entry = try root.object("sparkplug") else { return nil }
        try entry.rejectUnknownKeys(fields)
        let group = try entry.required("group_id", entry.string)
        var settings = SparkplugSettings(groupID: group)
        settings.edgeNodeID = try entry.string("edge_node_id")
        settings.primaryHostID = try entry.string("primary_host_id")
        settings.nativeContract = try entry.bool("native_contract") ?? true
        settings.stateFile = try entry.string("state_file")
        settings.storeFile = try entry.string("store_file")
        settings.clientID = try entry.string("client_id")
        if let limit = try entry.integer("store_limit") {
            guard (0...1_000_000).contains(limit) else {
                throw ConfigurationError(fieldPath: entry.fieldPath("store_limit"), reason: "must be 0…1000000 metrics")
            }
            settings.storeLimit = limit
        }
        try settings.validate(fieldPath: entry.path)
        return settings
    }

    /// Checks the IDs (Sparkplug 3.0, section 4.1.1) and the state file's name.
    /// - Throws: ``ConfigurationError`` naming `{fieldPath}.group_id`, …
    func validate(fieldPath: String = "sparkplug") throws(ConfigurationError) {
        for (field, identifier) in [("group_id", groupID), ("edge_node_id", edgeNodeID), ("primary_host_id", primaryHostID)] {
            guard let identifier, let problem = SparkplugTopic.identifierProblem(identifier) else { continue }
            throw ConfigurationError(fieldPath: "\(fieldPath).\(field)", reason: "\"\(ContractText.sanitized(identifier))\" \(problem)")
        }
        if groupID == SparkplugTopic.stateLevel {
            throw ConfigurationError(fieldPath: "\(fieldPath).group_id", reason: "\(groupID) is the host applications' topic level")
        }
        if let stateFile, stateFile.isEmpty {
            throw ConfigurationError(fieldPath: "\(fieldPath).state_file", reason: "must name a file")
        }
        if let storeFile, storeFile.isEmpty {
            throw ConfigurationError(fieldPath: "\(fieldPath).store_file", reason: "must name a file")
        }
        if let clientID, clientID.isEmpty || clientID.utf8.count > 65_535 {
            throw ConfigurationError(fieldPath: "\(fieldPath).client_id", reason: "must be 1…65535 bytes")
        }
    }

    /// The identity of device `deviceID`'s edge node.
    func identity(deviceID: String) -> SparkplugIdentity {
        SparkplugIdentity(group: groupID, edgeNode: edgeNodeID ?? deviceID, primaryHost: primaryHostID)
    }
}
