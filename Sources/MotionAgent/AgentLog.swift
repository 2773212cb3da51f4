#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials

/// The agent's log: one line per event on standard error, prefixed with the UTC time.
public enum AgentLog {
    /// Writes `message` as one line to standard error.
    public static func info(_ message: String) {
        writeToStandardError(
            "\(Date().ISO8601Format(.iso8601.year().month().day().time(includingFractionalSeconds: true))) \(message)\n")
    }

    /// Writes `text` to standard error as it is, in one `write(2)`, so that lines of several threads never
    /// interleave.
    public static func writeToStandardError(_ text: String) {
        var bytes = Array(text.utf8)
        _ = bytes.withUnsafeMutableBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }

    /// Text from outside (a command, a topic, a file's content) made safe for one log line or answer:
    /// control, format and line- or paragraph-separator characters (which could forge or reorder lines,
    /// or hide text) become `\u{…}` escapes, and the result is at most `limit` UTF-8 bytes, cut with
    /// `… (N bytes)` inside that budget, so that no input can flood the log.
    /// - Parameters:
    ///   - text: the untrusted text.
    ///   - limit: the most UTF-8 bytes of the result, 120 by default (at least 32).
    public static func sanitized(_ text: some StringProtocol, limit: Int = 120) -> String {
        let suffix = "… (\(text.utf8.count) bytes)"
        let budget = max(limit, 32)
        var result = ""
        var length = 0  // UTF-8 bytes of `result`
        for scalar in text.unicodeScalars {
            let printable: String
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned:
                printable = "\\u{\(String(scalar.value, radix: 16))}"
            default:
                printable = String(scalar)
            }
            guard length + printable.utf8.count <= budget else {
                // Room for the suffix: drop what it needs from the end (whole scalars).
                while length + suffix.utf8.count > budget, let last = result.unicodeScalars.last {
                    length -= String(last).utf8.count
                    result.unicodeScalars.removeLast()
                }
                return result + suffix
            }
            result += printable
            length += printable.utf8.count
        }
        return result
    }

    /// `value` with exactly `places` decimals (rounded half away from zero), e.g. `-3.20` for (−3.2, 2):
    /// for log lines, without Foundation's formatters.
    public static func decimal(_ value: Double, places: Int) -> String {
        guard value.isFinite else { return "\(value)" }
        var scale = 1.0
        for _ in 0..<max(places, 0) { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        guard scaled < 9e15 else { return "\(value)" }
        let units = Int(scaled)
        let whole = units / Int(scale), fraction = units % Int(scale)
        var digits = String(fraction)
        while digits.count < places { digits = "0" + digits }
        let sign = value < 0 && units != 0 ? "-" : ""
        return places > 0 ? "\(sign)\(whole).\(digits)" : "\(sign)\(whole)"
    }
}
