import Foundation

/// The agent's log: one line per event on standard error, prefixed with the UTC time.
public enum AgentLog {
    /// Writes `message` as one line to standard error.
    public static func info(_ message: String) {
        let line = "\(Date().ISO8601Format(.iso8601.year().month().day().time(includingFractionalSeconds: true))) \(message)\n"
        FileHandle.standardError.write(Data(line.utf8))
    }

    /// Text from outside (a command, a topic, a file's content) made safe for one log line or answer:
    /// control characters become `\u{…}` escapes, so that no line can be forged, and anything past
    /// `limit` characters (escapes counted as written) is cut with `…` and the full length, so that no input
    /// can flood the log.
    /// - Parameters:
    ///   - text: the untrusted text.
    ///   - limit: characters kept, 120 by default.
    public static func sanitized(_ text: some StringProtocol, limit: Int = 120) -> String {
        var result = ""
        var count = 0  // characters of `result`, escapes included
        for character in text {
            let isControl = character.unicodeScalars.contains { $0.properties.generalCategory == .control }
            let printable = isControl ? character.unicodeScalars.map { "\\u{\(String($0.value, radix: 16))}" }.joined() : String(character)
            guard count + printable.count <= limit else {
                return result + "… (\(text.utf8.count) bytes)"
            }
            result += printable
            count += printable.count
        }
        return result
    }
}
