import CMosquitto
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A failed MQTT operation: which operation, libmosquitto's error code, and an explanation.
public struct MQTTError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Which table ``code`` belongs to.
    public enum Kind: Sendable, Equatable {
        /// A libmosquitto `MOSQ_ERR_*` code (explained by `mosquitto_strerror`).
        case library
        /// An MQTT CONNACK / MQTT 5 reason code from the broker (explained by
        /// `mosquitto_connack_string` / `mosquitto_reason_string`).
        case brokerReason
        /// A configuration value this wrapper refuses before calling libmosquitto
        /// (``code`` is `MOSQ_ERR_INVAL`).
        case invalidConfiguration
    }

    /// The error code, interpreted according to ``kind``.
    public let code: Int32
    /// What was being done, e.g. `"publish to motion/a/b"`.
    public let operation: String
    /// Which table ``code`` belongs to.
    public let kind: Kind
    /// For `MOSQ_ERR_ERRNO`, the `errno` seen right after the call; otherwise `nil`.
    public let systemErrno: Int32?
    /// Extra explanation from this wrapper (for example which configuration field is wrong).
    public let detail: String?

    /// An error from a libmosquitto call. For `MOSQ_ERR_ERRNO` pass the `errno` seen after the call.
    public init(code: Int32, operation: String, systemErrno: Int32? = nil, detail: String? = nil) {
        self.code = code
        self.operation = operation
        self.kind = .library
        self.systemErrno = MosquittoResult(code) == .systemError ? systemErrno : nil
        self.detail = detail
    }

    /// A refusal from the broker, with its CONNACK or MQTT 5 reason code.
    public init(brokerReason code: Int32, operation: String) {
        self.code = code
        self.operation = operation
        self.kind = .brokerReason
        self.systemErrno = nil
        self.detail = nil
    }

    /// A configuration this wrapper rejects; `detail` names the field and the rule.
    public init(invalidConfiguration detail: String) {
        self.code = MosquittoResult.invalid.code
        self.operation = "configure MQTT client"
        self.kind = .invalidConfiguration
        self.systemErrno = nil
        self.detail = detail
    }

    /// `OPERATION failed: EXPLANATION (code N)`.
    public var description: String {
        var explanation: String
        switch kind {
        case .library:
            explanation = MQTTError.libraryMessage(code, systemErrno: systemErrno)
        case .brokerReason:
            explanation = MQTTError.brokerReasonMessage(code)
        case .invalidConfiguration:
            explanation = "invalid configuration"
        }
        if let detail { explanation += " (\(detail))" }
        return "\(operation) failed: \(explanation) (code \(code))"
    }

    /// The explanation of a `MOSQ_ERR_*` code: `mosquitto_strerror`'s, except where libmosquitto 2.0.11 has
    /// none ("Unknown error." for codes it added later) or a misleading one (`MOSQ_ERR_ERRNO` gives
    /// `strerror` of whatever `errno` holds when asked, often "Success").
    /// - Parameters:
    ///   - code: a `MOSQ_ERR_*` code.
    ///   - systemErrno: for `MOSQ_ERR_ERRNO`, the `errno` seen right after the failing call.
    static func libraryMessage(_ code: Int32, systemErrno: Int32? = nil) -> String {
        MosquittoResult(code).message(systemErrno: systemErrno)
    }

    /// The explanation of a broker reason code: MQTT 5 reason codes are >= 0x80 (or 0 for success),
    /// MQTT 3.1.1 CONNACK return codes are 1...5.
    static func brokerReasonMessage(_ code: Int32, protocolVersion: MQTTProtocolVersion = .v5) -> String {
        if protocolVersion == .v311 || (1...5).contains(code) {
            return String(cString: mosquitto_connack_string(code))
        }
        return String(cString: mosquitto_reason_string(code))
    }
}

