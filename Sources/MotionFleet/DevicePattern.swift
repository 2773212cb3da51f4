#if canImport(Glibc)
import Glibc
#endif

/// A shell-style pattern over device identifiers, as fleet commands take them: `board-*`, `shelf-?`,
/// `line-[1-3]`, or a plain identifier. Matching is the C library's `fnmatch(3)`, so it behaves as
/// the shell's globbing does (`*`, `?`, `[...]`, `[!...]`, `\` escapes).
public struct DevicePattern: Sendable, Equatable, CustomStringConvertible {
    /// The pattern as given.
    public let text: String

    /// A pattern that matches every device.
    public static let all = DevicePattern(unchecked: "*")

    /// Checks `text`: not empty, and only characters that can appear in a device identifier
    /// (`[a-z0-9_-]`) or in a pattern (`*?[]!^\`).
    /// - Throws: ``DevicePatternError`` saying which character cannot match any device.
    public init(_ text: String) throws(DevicePatternError) {
        guard !text.isEmpty else { throw DevicePatternError(pattern: text, reason: "it is empty") }
        let allowed: Set<Character> = ["*", "?", "[", "]", "!", "^", "\\", "-", "_"]
        if let bad = text.first(where: { !(($0.isASCII && ($0.isLowercase || $0.isNumber)) || allowed.contains($0)) }) {
            throw DevicePatternError(
                pattern: text, reason: "'\(bad)' cannot appear in a device id (lower-case letters, digits, _ and -)")
        }
        self.text = text
    }

    private init(unchecked text: String) { self.text = text }

    /// Whether `deviceID` matches.
    public func matches(_ deviceID: String) -> Bool {
        fnmatch(text, deviceID, 0) == 0
    }

    /// Whether the pattern names one device (it has no wildcard).
    public var isLiteral: Bool { !text.contains(where: { "*?[\\".contains($0) }) }

    public var description: String { text }
}

/// A device pattern that cannot match: empty, or with a character no device identifier has.
public struct DevicePatternError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The pattern as given.
    public let pattern: String
    /// Why it cannot be used.
    public let reason: String

    public var description: String { "device pattern \"\(pattern)\": \(reason)" }
}
