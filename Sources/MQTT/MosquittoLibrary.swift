import CMosquitto

/// Process-wide libmosquitto setup.
///
/// `mosquitto_lib_init` is not thread-safe and must run once per process before any other call; a
/// `static let` is initialised exactly once, thread-safely, on first use. `mosquitto_lib_cleanup` is
/// never called: clients may live until the process exits, and the OS reclaims everything then.
enum MosquittoLibrary {
    /// The result of the one `mosquitto_lib_init` call (`MOSQ_ERR_SUCCESS` = 0 when it worked).
    private static let initializationResult: Int32 = mosquitto_lib_init()

    /// Initialises libmosquitto if this is the first call in the process.
    /// - Throws: ``MQTTError`` if `mosquitto_lib_init` failed.
    static func ensureInitialized() throws(MQTTError) {
        let result = initializationResult
        guard MosquittoResult(result).isSuccess else {
            throw MQTTError(code: result, operation: "initialise libmosquitto")
        }
    }

    /// The version of the libmosquitto shared library in use, e.g. `2.0.11`.
    static var version: String {
        var major: Int32 = 0, minor: Int32 = 0, revision: Int32 = 0
        mosquitto_lib_version(&major, &minor, &revision)
        return "\(major).\(minor).\(revision)"
    }
}
