/// The retained `{base}/config` message: the run-time configuration a device has in force (its reported
/// state), how many remote changes made it, a hash that identifies it, and where each part came from
/// (docs/MQTT-CONTRACT.md, "Remote configuration").
public struct ConfigurationReport: Sendable, Equatable {
    /// Where a part of the configuration in force came from.
    public enum Source: String, Sendable, Equatable, CaseIterable {
        /// The agent's configuration file (or its defaults, or the command line on top of it).
        case file
        /// A document received on `{base}/config/set`, kept in the agent's state file.
        case remote
    }

    /// The parts of the run-time configuration that ``sources`` names: one per service
    /// (`services.accelerometer`, …), `health_interval`, `mount_matrix` and `detectors` (since 1.4).
    public static let parts = MotionService.allCases.map { "services.\($0.topicName)" } + ["health_interval", "mount_matrix", "detectors"]

    /// Remote documents accepted since the state file was made (0: none). Survives restarts with the state
    /// file; a file change (SIGHUP) does not count, the ``hash`` shows it.
    public var version: UInt64
    /// SHA-256 of ``settings`` in canonical form (``JSONWriter/canonical(_:)``), lowercase hex: equal hashes
    /// mean equal configurations, across devices too.
    public var hash: String
    /// The run-time configuration in force, in the configuration file's form: `services` (every service
    /// with every setting), `health_interval` (s), `detectors` (since 1.4) and `mount_matrix` (IIO's text
    /// form, or absent).
    public var settings: [String: JSONValue]
    /// The source of each of ``parts``.
    public var sources: [String: Source]
    /// When this configuration came into force, Unix time, s.
    public var ts: Double
    /// Why the remote configuration kept in the state file is not in force (it no longer fits the
    /// configuration file, or the state file cannot be read); `nil` when it is.
    public var error: String?

    /// Creates the message.
    public init(
        version: UInt64, hash: String, settings: [String: JSONValue], sources: [String: Source], ts: Double,
        error: String? = nil
    ) {
        self.version = version
        self.hash = hash
        self.settings = settings
        self.sources = sources
        self.ts = ts
        self.error = error
    }

    /// The JSON payload.
    public func json() -> String {
        var writer = JSONWriter()
        writer.field("version", version)
        writer.field("hash", hash)
        writer.field("ts", ts)
        writer.field("config", JSONValue.object(settings))
        writer.object("sources") { entries in
            for part in sources.keys.sorted() { entries.field(part, sources[part]!.rawValue) }
        }
        if let error { writer.field("error", error) }
        return writer.finished()
    }

    /// Decodes a `{base}/config` payload.
    /// - Throws: ``PayloadError`` naming the missing or wrong field.
    public init(payload: [UInt8]) throws(PayloadError) {
        let root = try JSONObjectReader<PayloadError>(bytes: payload)
        let settings = try root.required("config", root.object)
        let sourceEntries = try root.required("sources", root.object)
        var sources: [String: Source] = [:]
        for (part, value) in sourceEntries.members {
            guard case .string(let name) = value, let source = Source(rawValue: name) else {
                throw PayloadError(fieldPath: "sources.\(part)", reason: "must be \"file\" or \"remote\"")
            }
            sources[part] = source
        }
        let hash = try root.required("hash", root.string)
        guard hash.utf8.count == 64, hash.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else {
            throw PayloadError(fieldPath: "hash", reason: "must be 64 lowercase hexadecimal digits (SHA-256)")
        }
        self.init(
            version: try root.required("version", root.count), hash: hash, settings: settings.members,
            sources: sources, ts: try root.required("ts", root.number), error: try root.string("error"))
    }
}
