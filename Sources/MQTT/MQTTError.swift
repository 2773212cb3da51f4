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
        self.systemErrno = code == Int32(MOSQ_ERR_ERRNO.rawValue) ? systemErrno : nil
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
        self.code = Int32(MOSQ_ERR_INVAL.rawValue)
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
        switch code {
        case Int32(MOSQ_ERR_ERRNO.rawValue):
            guard let systemErrno, systemErrno != 0 else { return "a system call failed" }
            return String(cString: strerror(systemErrno))
        case Int32(MOSQ_ERR_KEEPALIVE.rawValue):
            return "the broker did not answer within the keepalive interval"
        case Int32(MOSQ_ERR_LOOKUP.rawValue): return "the broker's host name could not be resolved"
        case Int32(MOSQ_ERR_MALFORMED_PACKET.rawValue): return "the broker sent a malformed packet"
        case Int32(MOSQ_ERR_TIMEOUT.rawValue): return "the operation timed out"
        case Int32(MOSQ_ERR_RETAIN_NOT_SUPPORTED.rawValue): return "the broker does not support retained messages"
        case Int32(MOSQ_ERR_TOPIC_ALIAS_INVALID.rawValue): return "invalid topic alias"
        case Int32(MOSQ_ERR_ADMINISTRATIVE_ACTION.rawValue): return "the broker disconnected this client (administrative action)"
        case Int32(MOSQ_ERR_PLUGIN_DEFER.rawValue): return "deferred by a broker plugin"
        case Int32(MOSQ_ERR_ALREADY_EXISTS.rawValue): return "it already exists"
        default:
            return String(cString: mosquitto_strerror(code))
        }
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

