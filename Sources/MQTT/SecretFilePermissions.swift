#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The rule for files that hold a secret (a password, a TLS private key): users other than the file's
/// owner and group must have no access, as OpenSSH demands of private keys. A secret every user of the
/// board can read is no secret, so such a file is refused with the command that fixes it.
public enum SecretFilePermissions {
    /// What is wrong with `path`'s permissions, or `nil` when only its owner and group may use it (or it
    /// cannot be examined: reading it then fails with its own error).
    /// - Parameter path: the file.
    /// - Returns: e.g. `/etc/motion-agent/key.pem is readable by every user (mode 0644): chmod o-rwx /etc/motion-agent/key.pem`.
    public static func problem(with path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        let mode = status.st_mode & 0o777
        guard mode & 0o007 != 0 else { return nil }
        let octal = String(mode, radix: 8)
        return "\(path) is \(mode & 0o004 != 0 ? "readable" : "accessible") by every user "
            + "(mode \(String(repeating: "0", count: max(0, 4 - octal.count)) + octal)): chmod o-rwx \(path)"
    }
}
