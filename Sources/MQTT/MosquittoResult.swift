import CMosquitto
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A libmosquitto result (`MOSQ_ERR_*`), typed: the one place that compares raw codes. The client's
/// code asks ``isSuccess``, ``meansConnectionDropped`` and the named constants instead.
struct MosquittoResult: Equatable, Sendable, CustomStringConvertible {
    /// The raw `MOSQ_ERR_*` code.
    let code: Int32

    /// Wraps a raw code returned by libmosquitto.
    init(_ code: Int32) {
        self.code = code
    }

    private init(_ error: mosq_err_t) {
        code = Int32(error.rawValue)
    }

    /// `MOSQ_ERR_SUCCESS`.
    static let success = MosquittoResult(MOSQ_ERR_SUCCESS)
    /// `MOSQ_ERR_NO_CONN`: not connected (or the client was shut down).
    static let noConnection = MosquittoResult(MOSQ_ERR_NO_CONN)
    /// `MOSQ_ERR_CONN_LOST`: the connection dropped.
    static let connectionLost = MosquittoResult(MOSQ_ERR_CONN_LOST)
    /// `MOSQ_ERR_ERRNO`: a system call failed; `errno` says which way.
    static let systemError = MosquittoResult(MOSQ_ERR_ERRNO)
    /// `MOSQ_ERR_INVAL`: an invalid argument.
    static let invalid = MosquittoResult(MOSQ_ERR_INVAL)
    /// `MOSQ_ERR_PAYLOAD_SIZE`: a payload too large.
    static let payloadTooLarge = MosquittoResult(MOSQ_ERR_PAYLOAD_SIZE)

    /// Whether the call succeeded.
    var isSuccess: Bool { self == .success }

    /// Whether a publish result says the connection is gone rather than that the message was refused:
    /// `NO_CONN`, or a failed write (`CONN_LOST`, `ERRNO`), which only happens after queuing.
    var meansConnectionDropped: Bool { self == .noConnection || self == .connectionLost || self == .systemError }

    /// The code's words.
    var description: String { message(systemErrno: nil) }

    /// The explanation of the code: `mosquitto_strerror`'s, except where libmosquitto 2.0.11 has none
    /// ("Unknown error." for codes it added later) or a misleading one (`MOSQ_ERR_ERRNO` gives `strerror`
    /// of whatever `errno` holds when asked, often "Success").
    /// - Parameter systemErrno: for ``systemError``, the `errno` seen right after the failing call.
    func message(systemErrno: Int32?) -> String {
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
}
