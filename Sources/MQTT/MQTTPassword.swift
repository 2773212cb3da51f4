#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A broker password that never shows its content: `print`, string interpolation, `dump` and
/// `debugPrint` all show `<redacted>`.
///
/// Load it from a file (``init(contentsOfFile:)``) or an environment variable
/// (``init(environmentVariable:)``) rather than from a command-line argument, which other users of the
/// machine can see in the process list.
public struct MQTTPassword: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Why a password could not be loaded; the text names the file or the variable (never the content).
    public struct LoadError: Error, Sendable, Equatable, CustomStringConvertible {
        /// What went wrong, naming the file or environment variable.
        public let description: String
    }

    /// The secret itself, for handing to libmosquitto only.
    let secret: String

    /// A password given directly.
    /// - Parameter secret: the password text.
    public init(_ secret: String) {
        self.secret = secret
    }

    /// The longest password read from a file, bytes (MQTT's limit for the password field).
    public static let maximumLength = 65_535

    /// Reads the password from the first line of a file; a trailing `\n` (or `\r\n`) is not part of it.
    /// - Parameter path: the file, for example `/etc/motion-agent/mqtt-password` (mode 0600 or 0640).
    /// - Throws: ``LoadError`` naming `path` when the file cannot be read or is not a regular file (a FIFO
    ///   would block the reader until someone writes it; it is refused without waiting), other users may
    ///   read it (``SecretFilePermissions``), or its first line is empty or longer than ``maximumLength``.
    public init(contentsOfFile path: String) throws(LoadError) {
        if let problem = SecretFilePermissions.problem(with: path) {
            throw LoadError(description: "MQTT password file \(problem)")
        }
        // Non-blocking: opening a FIFO for reading would otherwise wait for a writer, forever.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw LoadError(description: "cannot read MQTT password file \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw LoadError(description: "MQTT password file \(path) is not a regular file")
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while !bytes.contains(UInt8(ascii: "\n")) {
            guard bytes.count <= Self.maximumLength + 2 else {
                throw LoadError(description: "MQTT password file \(path): the first line is longer than \(Self.maximumLength) bytes")
            }
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                throw LoadError(description: "cannot read MQTT password file \(path): \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            bytes += chunk[0..<count]
        }
        let firstLine = Self.firstLine(of: bytes)
        guard !firstLine.isEmpty else {
            throw LoadError(description: "MQTT password file \(path) is empty (the password is its first line)")
        }
        guard firstLine.count <= Self.maximumLength else {
            throw LoadError(description: "MQTT password file \(path): the first line is longer than \(Self.maximumLength) bytes")
        }
        self.init(String(decoding: firstLine, as: UTF8.self))
    }

    /// Reads the password from an environment variable (a trailing newline is not part of it).
    /// - Parameter name: the variable, for example `MQTT_PASSWORD`.
    /// - Throws: ``LoadError`` naming the variable when it is unset or empty.
    public init(environmentVariable name: String) throws(LoadError) {
        guard let value = getenv(name) else {
            throw LoadError(description: "environment variable \(name) (MQTT password) is not set")
        }
        let firstLine = Self.firstLine(of: Array(String(cString: value).utf8))
        guard !firstLine.isEmpty else {
            throw LoadError(description: "environment variable \(name) (MQTT password) is empty")
        }
        self.init(String(decoding: firstLine, as: UTF8.self))
    }

    /// Always `<redacted>`.
    public var description: String { "<redacted>" }
    /// Always `<redacted>`.
    public var debugDescription: String { "<redacted>" }
    /// No children, so `dump` and reflection show nothing of the secret.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }

    private static func firstLine(of bytes: [UInt8]) -> ArraySlice<UInt8> {
        var line = bytes[...]
        if let newline = line.firstIndex(of: UInt8(ascii: "\n")) { line = line[..<newline] }
        if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
        return line
    }
}
