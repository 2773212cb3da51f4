/// The answer to a control command: on the command's MQTT 5 response topic (with its correlation data)
/// when it named one, otherwise, for a refused command only, on `{base}/error` (docs/MQTT-CONTRACT.md).
public struct CommandAnswer: Sendable, Equatable {
    /// Whether the command was applied.
    public var ok: Bool
    /// The service the command was for (refusals only).
    public var service: MotionService?
    /// Why it was refused.
    public var error: String?
    /// The start of the refused payload, at most ``quotedCommandLength`` bytes, as text.
    public var command: String?
    /// For a configuration document (`{base}/config/set`): the ``ConfigurationReport/version`` in force
    /// after it was applied.
    public var version: UInt64?
    /// What the fleet should know about an applied command (since contract 1.6): a configuration document
    /// kept in memory only, because the device cannot write its state file.
    public var warning: String?

    /// How much of a refused payload the answer quotes, bytes.
    public static let quotedCommandLength = 200

    /// The answer of an applied command: `{"ok":true}`.
    public static let accepted = CommandAnswer(ok: true)

    /// Creates an answer.
    public init(
        ok: Bool, service: MotionService? = nil, error: String? = nil, command: String? = nil, version: UInt64? = nil,
        warning: String? = nil
    ) {
        self.ok = ok
        self.service = service
        self.error = error
        self.command = command
        self.version = version
        self.warning = warning
    }

    /// The answer of an applied configuration document: `{"ok":true,"version":n[,"warning":…]}` (the warning
    /// cut at ``ContractText/maximumReasonLength``).
    public static func accepted(version: UInt64, warning: String? = nil) -> CommandAnswer {
        CommandAnswer(ok: true, version: version, warning: warning.map { ContractText.sanitized($0, limit: ContractText.maximumReasonLength) })
    }

    /// The answer refusing `payload` for `service` (`nil`: a configuration document) because of `reason`,
    /// made printable and cut at ``ContractText/maximumReasonLength`` (a reason may quote the document).
    public static func refusal(_ reason: String, service: MotionService?, payload: [UInt8]) -> CommandAnswer {
        CommandAnswer(
            ok: false, service: service, error: ContractText.sanitized(reason, limit: ContractText.maximumReasonLength),
            command: String(decoding: payload.prefix(quotedCommandLength), as: UTF8.self))
    }

    /// The JSON payload: `{"ok":true}` (with `"version"` for a configuration document) or
    /// `{"ok":false,"service":…,"error":…,"command":…}`.
    public func json() -> String {
        var writer = JSONWriter()
        writer.field("ok", ok)
        if let service { writer.field("service", service.topicName) }
        if let error { writer.field("error", error) }
        if let command { writer.field("command", command) }
        if let version { writer.field("version", version) }
        if let warning { writer.field("warning", warning) }
        return writer.finished()
    }

    /// Decodes an answer.
    /// - Throws: ``PayloadError`` naming the missing or wrong field.
    public init(payload: [UInt8]) throws(PayloadError) {
        let root = try JSONObjectReader<PayloadError>(bytes: payload)
        let serviceName = try root.string("service")
        let service = try serviceName.map { name throws(PayloadError) in
            guard let service = MotionService(topicName: name) else {
                throw PayloadError(fieldPath: "service", reason: "unknown service \"\(name)\"")
            }
            return service
        }
        self.init(
            ok: try root.required("ok", root.bool), service: service, error: try root.string("error"),
            command: try root.string("command"), version: try root.count("version"), warning: try root.string("warning"))
    }
}
