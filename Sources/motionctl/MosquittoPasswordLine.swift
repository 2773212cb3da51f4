import CCrypto
import Foundation

/// A line of mosquitto's `password_file`, as `mosquitto_passwd` (2.0) writes it:
/// `user:$7$101$SALT$HASH`, PBKDF2-HMAC-SHA512 over the password with 101 iterations, a 12-byte random
/// salt and a 64-byte hash, both base64. The line holds no secret (the password cannot be read back).
enum MosquittoPasswordLine {
    /// Why a line or a password could not be made (libcrypto failed).
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The iterations mosquitto 2.0.11 uses (`PW_DEFAULT_ITERATIONS`).
    static let iterations: Int32 = 101

    /// The line for `user` with `password`.
    static func make(user: String, password: String) throws(Failure) -> String {
        let salt = try randomBytes(12)
        var hash = [UInt8](repeating: 0, count: 64)
        let password = Array(password.utf8)
        let result = password.withUnsafeBufferPointer { secret in
            secret.withMemoryRebound(to: CChar.self) { secret in
                PKCS5_PBKDF2_HMAC(secret.baseAddress, Int32(secret.count), salt, Int32(salt.count), iterations, EVP_sha512(), Int32(hash.count), &hash)
            }
        }
        guard result == 1 else { throw Failure(description: "PBKDF2 failed in libcrypto") }
        return "\(user):$7$\(iterations)$\(Data(salt).base64EncodedString())$\(Data(hash).base64EncodedString())"
    }

    /// A new random password: 24 bytes from OpenSSL's generator, as 32 base64url characters.
    static func randomPassword() throws(Failure) -> String {
        Data(try randomBytes(24)).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
    }

    /// `count` bytes from OpenSSL's random generator.
    static func randomBytes(_ count: Int) throws(Failure) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        guard RAND_bytes(&bytes, Int32(count)) == 1 else { throw Failure(description: "no random bytes from libcrypto") }
        return bytes
    }
}
