#if canImport(Glibc)
import Glibc
#endif
import MotionHAL
import MotionMath
import Synchronization

/// The agent's log: one line per event on standard error, with a priority.
///
/// On a terminal or into a file each line starts with the UTC time (and `warning:` or `error:` for those
/// priorities). When standard error is the systemd journal's stream (``JournalStream``), each line
/// starts instead with the syslog priority in angle brackets (`<3>` error … `<6>` info), which journald
/// reads as the entry's priority (`journalctl -p warning -u motion-agent`) and adds its own time stamp.
///
/// Threading: every function may be called from any thread; each line is one `write(2)`.
public enum AgentLog {
    /// How important a line is: the syslog priorities the agent uses (RFC 5424 numbers).
    public enum Priority: Int, Sendable {
        /// The agent cannot do its job: it is stopping, or a part of it (recording, announcing) failed.
        case error = 3
        /// Something outside is wrong and the agent works around it: the broker is gone, the device
        /// failed, a command arrived retained.
        case warning = 4
        /// A normal but significant change: connected, device opened, configuration applied, stopped.
        case notice = 5
        /// Routine detail: a service started or stopped, calibration and declination in use.
        case info = 6
    }

    /// The least important priority written (a raw value: larger is less important); info by default.
    private static let threshold = Atomic<Int>(Priority.info.rawValue)

    /// Writes only lines at `priority` or more important from now on (``failure(_:program:)`` always):
    /// for a process of many agents (`motionctl simulate`), whose routine lines would be thousands.
    public static func setMinimumPriority(_ priority: Priority) {
        threshold.store(priority.rawValue, ordering: .relaxed)
    }

    /// Where lines go, chosen once: the journal's stream or a terminal or file.
    static let destination: LogLineFormat = JournalStream.isConnected(descriptor: STDERR_FILENO) ? .journal : .timestamped

    /// An error line (see ``Priority/error``).
    public static func error(_ message: String) { log(message, priority: .error) }
    /// A warning line (see ``Priority/warning``).
    public static func warning(_ message: String) { log(message, priority: .warning) }
    /// A notice line (see ``Priority/notice``).
    public static func notice(_ message: String) { log(message, priority: .notice) }
    /// An info line (see ``Priority/info``).
    public static func info(_ message: String) { log(message, priority: .info) }

    /// Why the program cannot start or go on (a configuration error, exit status 78): `program: message`
    /// at error priority, without the time on a terminal, where a person reads it in a shell; the journal
    /// still gets the priority.
    public static func failure(_ message: String, program: String = "motion-agent") {
        writeToStandardError(destination.format("\(program): \(message)", priority: .error, unixTime: nil))
    }

    /// Writes `message` with `priority` as one line (or, for a message of several lines, one per line)
    /// to standard error.
    public static func log(_ message: String, priority: Priority) {
        guard priority.rawValue <= threshold.load(ordering: .relaxed) else { return }
        writeToStandardError(destination.format(message, priority: priority, unixTime: WallClock.unixTime()))
    }

    /// Writes `text` to standard error as it is, in one `write(2)`, so that lines of several threads never
    /// interleave. For text that is not a log line (usage); log lines go through ``log(_:priority:)``.
    public static func writeToStandardError(_ text: String) {
        var bytes = Array(text.utf8)
        _ = bytes.withUnsafeMutableBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }

    /// `value` with exactly `places` decimals (rounded half away from zero), e.g. `-3.20` for (−3.2, 2):
    /// for log lines, without Foundation's formatters.
    public static func decimal(_ value: Double, places: Int) -> String {
        value.fixedDecimal(places: places)
    }
}

/// How a log line is written (pure: the tests check both forms directly).
enum LogLineFormat: Sendable {
    /// `2026-12-01T22:10:00.123Z warning: message`: for a terminal or a file.
    case timestamped
    /// `<4>message`: for the journal's stream, which takes the prefix as the priority and stamps the time.
    case journal

    /// `message` as the text to write, ending in a newline; a message of several lines gives one line
    /// each, every one with the prefix (the journal makes an entry of each line).
    /// - Parameter unixTime: the line's time, s since 1970; `nil`: a line without time or level word
    ///   (``AgentLog/failure(_:program:)``).
    func format(_ message: String, priority: AgentLog.Priority, unixTime: Double?) -> String {
        let prefix: String
        switch (self, unixTime) {
        case (.journal, _):
            prefix = "<\(priority.rawValue)>"
        case (.timestamped, nil):
            prefix = ""
        case (.timestamped, let unixTime?):
            let level = priority == .error ? "error: " : priority == .warning ? "warning: " : ""
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
enum JournalStream {
    /// Whether `descriptor` is the stream `environment`'s `JOURNAL_STREAM` names (this process's
    /// environment by default).
    static func isConnected(descriptor: Int32, journalStream: String? = getenv("JOURNAL_STREAM").map { String(cString: $0) }) -> Bool {
        guard let journalStream, let (device, inode) = parse(journalStream) else { return false }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return false }
        return UInt64(status.st_dev) == device && UInt64(status.st_ino) == inode
    }

    /// `DEV:INODE` as two numbers; `nil` for anything else.
    static func parse(_ value: String) -> (device: UInt64, inode: UInt64)? {
        let parts = value.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return nil }
        return (device, inode)
    }
}
