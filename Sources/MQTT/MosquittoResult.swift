import CMosquitto

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

    /// The code's words (``MQTTError/libraryMessage(_:systemErrno:)``).
    var description: String { MQTTError.libraryMessage(code, systemErrno: nil) }
}
