#if canImport(Glibc)
import Glibc
#endif
import CCrypto
import MotionContract
import MotionHAL

/// The device's desired state from the fleet: the documents accepted on `{base}/config/set`, merged into
/// one overlay of the configuration file's run-time fields, and the count of them. A pure value: the
/// agent keeps it in its state file (``RemoteConfigurationStore``) and applies
/// ``AgentConfiguration/applying(remote:)`` of it.
public struct RemoteConfiguration: Sendable, Equatable {
    /// The top-level fields a remote document may set: the run-time part of the configuration.
    public static let fields: Set<String> = ["services", "health_interval", "mount_matrix", "detectors"]

    /// The merged documents: a JSON object with some of ``fields``, in the configuration file's form.
    public private(set) var overlay: [String: JSONValue]
    /// How many documents were accepted (``ConfigurationReport/version``), at most ``maximumVersion``.
    public private(set) var version: UInt64

    /// The largest version, 2^53 − 1: the largest integer every JSON reader keeps exactly (a JavaScript
    /// number, a Home Assistant template), far below what the state file's reader takes. Never reached at
    /// any real rate of documents; a state file claiming more is damaged.
    public static let maximumVersion: UInt64 = (1 << 53) - 1

    /// Creates the state; empty (nothing from the fleet) by default.
    public init(overlay: [String: JSONValue] = [:], version: UInt64 = 0) {
        self.overlay = overlay
        self.version = version
    }

    /// This state after `document`: merged as a JSON Merge Patch (RFC 7386; `null` hands a setting back
    /// to the file), with a service's `rate_hz` replacing its `interval` and the reverse, and the version
    /// counted up. Not validated against a configuration: see ``AgentConfiguration/applying(remote:)``.
    /// - Parameter document: the payload received, UTF-8 JSON.
    /// - Throws: ``ConfigurationError`` naming the field when the document is not a JSON object of
    ///   run-time fields (the configuration file's names and paths), or when the version is at
    ///   ``maximumVersion``.
    public func accepting(_ document: [UInt8]) throws(ConfigurationError) -> RemoteConfiguration {
        guard version < Self.maximumVersion else {
            throw ConfigurationError(fieldPath: "", reason: "the configuration version is at its maximum (\(Self.maximumVersion)): no further document can be counted")
        }
        let root = try ConfigurationReader(bytes: document)
        try Self.checkFields(of: root)
        var patch = root.members
        if let services = try root.object("services") {
            // Checked before merging too: an empty entry for an unknown service would vanish in the merge.
            try services.rejectUnknownKeys(Set(MotionService.allCases.map(\.topicName)))
        }
        if let detectors = try root.object("detectors") {
            // The same: a misspelt detector or threshold set to null would vanish in the merge.
            _ = try DetectorSettings().updated(from: detectors)
        }
        if case .object(var services) = patch["services"] {
            for (name, entry) in services {
                guard case .object(var settings) = entry else { continue }
                // The file takes one of the two: the one given replaces the other.
                if settings["rate_hz"] != nil, settings["interval"] == nil { settings["interval"] = .null }
                if settings["interval"] != nil, settings["rate_hz"] == nil { settings["rate_hz"] = .null }
                services[name] = .object(settings)
            }
            patch["services"] = .object(services)
        }
        let merged = JSONValue.object(overlay).mergePatched(with: .object(patch)).objectMembers ?? [:]
        return RemoteConfiguration(overlay: Self.withoutEmptyObjects(merged), version: version + 1)
    }

    /// Refuses a field outside the run-time part, saying why (a file-only field is named as such).
    static func checkFields(of root: ConfigurationReader) throws(ConfigurationError) {
        let fileOnly = root.members.keys.sorted().first { !fields.contains($0) }
        guard let fileOnly else { return }
        let reason =
            AgentConfiguration.fileFields.contains(fileOnly)
            ? "cannot be changed remotely: edit the configuration file (remote documents set services, health_interval, mount_matrix and detectors)"
            : "unknown field (known: \(fields.sorted().joined(separator: ", ")))"
        throw ConfigurationError(fieldPath: fileOnly, reason: reason)
    }

    /// Where each of ``ConfigurationReport/parts`` comes from: `remote` when the overlay sets any of it.
    public var sources: [String: ConfigurationReport.Source] {
        let services = overlay["services"]?.objectMembers ?? [:]
        var sources: [String: ConfigurationReport.Source] = [:]
        for service in MotionService.allCases {
            sources["services.\(service.topicName)"] = services[service.topicName] == nil ? .file : .remote
        }
        for field in ["health_interval", "mount_matrix", "detectors"] { sources[field] = overlay[field] == nil ? .file : .remote }
        return sources
    }

    /// `members` with the objects a `null` emptied removed, so that an overlay handed back whole to the
    /// file is empty again.
    private static func withoutEmptyObjects(_ members: [String: JSONValue]) -> [String: JSONValue] {
        members.compactMapValues { value in
            guard case .object(let nested) = value else { return value }
            let cleaned = withoutEmptyObjects(nested)
            return cleaned.isEmpty ? nil : .object(cleaned)
        }
    }
}

extension AgentConfiguration {
    /// This configuration with a remote overlay's run-time fields set on top, checked as the file's are.
    /// - Throws: ``ConfigurationError`` with the file's field paths (`services.gyro.rate_hz`).
    public func applying(remote overlay: [String: JSONValue]) throws(ConfigurationError) -> AgentConfiguration {
        let root = ConfigurationReader(object: overlay, path: "")
        try RemoteConfiguration.checkFields(of: root)
        var result = self
        try result.applyRuntimeFields(of: root)
        try result.validateRuntime()
        return result
    }

    /// The configuration in force for this file configuration and the accepted documents: the documents
    /// on top when remote configuration is on and they fit the file; otherwise the file's, with why the
    /// documents are not in force.
    func inForce(with remote: RemoteConfiguration) -> (configuration: AgentConfiguration, error: String?) {
        guard remoteConfiguration.enabled, !remote.overlay.isEmpty else { return (self, nil) }
        do {
            return (try applying(remote: remote.overlay), nil)
        } catch {
            return (self, "the remote configuration (version \(remote.version)) does not fit the configuration file: \(error)")
        }
    }

    /// The run-time part in force, in the configuration file's form with every setting written out:
    /// `services` (each with `enabled`, `interval`, `qos`, `mode`, `batch`, `format` and, when set, `deadband`,
    /// `heartbeat`, `message_expiry`, `frame`; vibration with its own keys instead of `mode` … `heartbeat`), `health_interval`, `detectors` (every detector with every
    /// threshold) and, when set, `mount_matrix`.
    public var runtimeSettings: [String: JSONValue] {
        var entries: [String: JSONValue] = [:]
        for service in MotionService.allCases {
            let settings = settings(for: service)
            var entry: [String: JSONValue] = [
                "enabled": .bool(settings.enabled), "interval": .real(settings.sampling.interval),
                "qos": .integer(Int64(settings.qos)), "format": .string(settings.format.rawValue),
            ]
            if let vibration = settings.vibration {
                entry.merge(vibration.runtimeEntries) { _, new in new }
            } else {
                entry["mode"] = .string(settings.sampling.mode.rawValue)
                entry["batch"] = .integer(Int64(settings.sampling.batchSize))
                entry["deadband"] = settings.sampling.deadband.map(JSONValue.real)
                entry["heartbeat"] = settings.sampling.heartbeat.map(JSONValue.real)
            }
            entry["message_expiry"] = settings.messageExpiry.map { .integer(Int64($0)) }
            if service == .deviceMotion { entry["frame"] = settings.referenceFrame.map { JSONValue.string($0.rawValue) } }
            entries[service.topicName] = .object(entry)
        }
        var settings: [String: JSONValue] = [
            "services": .object(entries), "health_interval": .real(healthInterval), "detectors": detectors.runtimeSettings,
        ]
        settings["mount_matrix"] = mountMatrix.map { .string($0.description) }
        return settings
    }

    /// The report of the run-time part in force.
    /// - Parameters:
    ///   - remote: the fleet's state (version, sources).
    ///   - ts: when it came into force, Unix time, s.
    ///   - error: why the remote state is not in force, or `nil`.
    func configurationReport(remote: RemoteConfiguration, ts: Double, error: String?) -> ConfigurationReport {
        let settings = runtimeSettings
        return ConfigurationReport(
            version: remote.version, hash: Self.sha256(JSONWriter.canonical(settings)), settings: settings,
            sources: error == nil ? remote.sources : RemoteConfiguration().sources, ts: ts, error: error)
    }

    /// SHA-256 of `bytes`, lowercase hex (OpenSSL's libcrypto, through its low-level interface: the EVP
    /// one would keep about 2 MB more of the library resident; see `CCrypto/shim.h`).
    static func sha256(_ bytes: [UInt8]) -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        let done = bytes.withUnsafeBufferPointer { ccrypto_sha256($0.baseAddress, $0.count, &digest) }
        precondition(done == 1, "OpenSSL's SHA-256 failed")
        let hex = Array("0123456789abcdef".utf8)
        return String(decoding: digest.flatMap { [hex[Int($0 >> 4)], hex[Int($0 & 15)]] }, as: UTF8.self)
    }
}
