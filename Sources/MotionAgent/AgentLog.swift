#if canImport(Glibc)
import Glibc
#endif
import MotionHAL
import MotionMath

/// The agent's log: one line per event on standard error, prefixed with the UTC time.
public enum AgentLog {
    /// Writes `message` as one line to standard error.
    public static func info(_ message: String) {
        writeToStandardError("\(UTCDateTime(unixTime: WallClock.unixTime()).iso8601(fractionalDigits: 3)) \(message)\n")
    }

    /// Writes `text` to standard error as it is, in one `write(2)`, so that lines of several threads never
    /// interleave.
    public static func writeToStandardError(_ text: String) {
        var bytes = Array(text.utf8)
        _ = bytes.withUnsafeMutableBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
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
