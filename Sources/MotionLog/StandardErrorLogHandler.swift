#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MotionMath

/// Log lines on standard error, one `write(2)` each, so that lines of several threads never interleave.
///
/// On a terminal or into a file each line starts with the UTC time (and `warning:` or `error:` for those
/// priorities). When standard error is the systemd journal's stream (``JournalStream``), each line starts
/// instead with the syslog priority in angle brackets (`<3>` error … `<7>` debug), which journald reads as
/// the entry's priority (`journalctl -p warning -u motion-agent`) and adds its own time stamp. The label is
/// not written: the lines read as the program's own, whichever module wrote them.
public struct StandardErrorLogHandler: LogHandler {
    /// The lines' form.
    public let format: LogLineFormat

    /// A handler in the form standard error calls for: the journal's when it is the journal's stream,
    /// time-stamped otherwise.
    public init() {
        format = JournalStream.isConnected(descriptor: STDERR_FILENO) ? .journal : .timestamped
    }

    public func write(_ record: LogRecord) {
        Self.write(format.format(record.message, priority: record.priority, unixTime: record.unixTime))
    }

    /// Why a program cannot start or go on (a configuration error, exit status 78): `program: message` at
    /// error priority, without the time on a terminal, where a person reads it in a shell; the journal still
    /// gets the priority. Always written, whatever the minimum priority.
    public func failure(_ message: String, program: String) {
        Self.write(format.format("\(program): \(message)", priority: .error, unixTime: nil))
    }

    /// Writes `text` to standard error as it is, in one `write(2)`: for text that is not a log line (usage).
    public static func write(_ text: String) {
        var bytes = Array(text.utf8)
        _ = bytes.withUnsafeMutableBytes { Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}

/// How a log line is written (pure: the tests check both forms directly).
public enum LogLineFormat: Sendable {
    /// `2026-12-01T22:10:00.123Z warning: message`: for a terminal or a file.
    case timestamped
    /// `<4>message`: for the journal's stream, which takes the prefix as the priority and stamps the time.
    case journal

    /// `message` as the text to write, ending in a newline; a message of several lines gives one line
    /// each, every one with the prefix (the journal makes an entry of each line).
    /// - Parameter unixTime: the line's time, s since 1970; `nil`: a line without time or level word
    ///   (``StandardErrorLogHandler/failure(_:program:)``).
    public func format(_ message: String, priority: LogPriority, unixTime: Double?) -> String {
        let prefix: String
        switch (self, unixTime) {
        case (.journal, _):
            prefix = "<\(priority.rawValue)>"
        case (.timestamped, nil):
            prefix = ""
        case (.timestamped, let unixTime?):
            let level = priority == .error ? "error: " : priority == .warning ? "warning: " : priority == .debug ? "debug: " : ""
            prefix = "\(UTCDateTime(unixTime: unixTime).iso8601(fractionalDigits: 3)) \(level)"
        }
        var text = ""
        for line in message.split(separator: "\n", omittingEmptySubsequences: false) {
            text += prefix
            text += line
            text += "\n"
        }
        return text
    }
}

/// Whether a descriptor is the systemd journal's stream: systemd sets `JOURNAL_STREAM` to the device and
/// inode numbers (`DEV:INODE`, decimal) of the stream it connects to standard output and error, and a
/// program compares them with its descriptor's (systemd.exec(5), "Environment variables in spawned
/// processes"), so that a descriptor redirected elsewhere (a pipe, a file, a terminal) is not mistaken
/// for the journal.
public enum JournalStream {
    /// Whether `descriptor` is the stream `journalStream` names (this process's `JOURNAL_STREAM` by
    /// default).
    public static func isConnected(descriptor: Int32, journalStream: String? = getenv("JOURNAL_STREAM").map { String(cString: $0) }) -> Bool {
        guard let journalStream, let (device, inode) = parse(journalStream) else { return false }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return false }
        return UInt64(status.st_dev) == device && UInt64(status.st_ino) == inode
    }

    /// `DEV:INODE` as two numbers; `nil` for anything else.
    public static func parse(_ value: String) -> (device: UInt64, inode: UInt64)? {
        let parts = value.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return nil }
        return (device, inode)
    }
}
