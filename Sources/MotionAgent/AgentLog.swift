import Foundation

/// The agent's log: one line per event on standard error, prefixed with the UTC time.
public enum AgentLog {
    /// Writes `message` as one line to standard error.
    public static func info(_ message: String) {
        let line = "\(Date().ISO8601Format(.iso8601.year().month().day().time(includingFractionalSeconds: true))) \(message)\n"
        FileHandle.standardError.write(Data(line.utf8))
    }
}
