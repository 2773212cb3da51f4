import CMosquitto
import Glibc
import Testing

@testable import MQTT

/// Error text a person can act on: libmosquitto 2.0.11 says "Success" for a failed system call when errno
/// has been reset, and "Unknown error." for ten of its own codes.
@Suite("MQTT error text")
struct MQTTErrorTests {
    @Test("a failed system call says what failed, never \"Success\"")
    func systemErrors() {
        let refused = MQTTError(code: Int32(MOSQ_ERR_ERRNO.rawValue), operation: "connect to mqtt://127.0.0.1:1", systemErrno: ECONNREFUSED)
        #expect(refused.description == "connect to mqtt://127.0.0.1:1 failed: Connection refused (code 14)")
        errno = 0
        let unknown = MQTTError(code: Int32(MOSQ_ERR_ERRNO.rawValue), operation: "publish", systemErrno: 0)
        #expect(!unknown.description.contains("Success"), "\(unknown)")
    }

    @Test("every libmosquitto code has words of its own")
    func everyCodeIsExplained() {
        for code in Int32(-4)...31 where code != MOSQ_ERR_UNKNOWN.rawValue {
            #expect(MQTTError.libraryMessage(code, systemErrno: ECONNRESET) != "Unknown error.", "code \(code)")
        }
        #expect(MQTTError.libraryMessage(Int32(MOSQ_ERR_KEEPALIVE.rawValue)).contains("keepalive"))
    }
}
