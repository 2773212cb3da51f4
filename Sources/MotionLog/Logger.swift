/// How important a log line is: the syslog priorities (RFC 5424 numbers), most important first.
public enum LogPriority: Int, Sendable, CaseIterable {
    /// A program cannot do its job: it is stopping, or a part of it (recording, announcing) failed.
    case error = 3
    /// Something outside is wrong and the program works around it: the broker is gone, the device failed,
    /// a command arrived retained.
    case warning = 4
    /// A normal but significant change: connected, device opened, configuration applied, stopped.
    case notice = 5
    /// Routine detail: a service started or stopped, calibration and declination in use, a retry planned.
    case info = 6
    /// Detail for finding a fault; not written unless asked for (``LoggingSystem/setMinimumPriority(_:)``).
    case debug = 7

    /// Whether a line of this priority is at least as important as `other`.
    public func isAtLeast(_ other: LogPriority) -> Bool { rawValue <= other.rawValue }
}

/// One line to log.
public struct LogRecord: Sendable, Equatable {
    /// The part of the program that wrote it (`agent`, `engine`, `mqtt`, `hal`).
    public var label: String
    /// How important it is.
    public var priority: LogPriority
    /// The text (may hold several lines).
    public var message: String
    /// When it was written, s since 1970 (the wall clock).
    public var unixTime: Double

    /// Creates a record.
    public init(label: String, priority: LogPriority, message: String, unixTime: Double) {
        self.label = label
        self.priority = priority
        self.message = message
        self.unixTime = unixTime
    }
}

/// Where log records go: standard error in the journal's or a terminal's form (``StandardErrorLogHandler``),
/// a test's capture, or a user's own. Called on the thread that logs: must be thread-safe and quick.
public protocol LogHandler: Sendable {
    /// Writes one record.
    func write(_ record: LogRecord)
}

/// The front every module logs through, in the shape of swift-log's `Logger`: a label and priority methods
/// over a ``LogHandler``. Cheap to copy and create; the message is built only when its priority is written.
///
/// Threading: every method may be called from any thread.
public struct Logger: Sendable {
    /// The part of the program this logger speaks for.
    public let label: String
    /// Its own handler, or nil for the process's (``LoggingSystem/handler``, looked up at each line).
    private let handler: (any LogHandler)?
    /// The least important priority this logger writes, or nil (the default) for the process's
    /// (``LoggingSystem/minimumPriority``).
    public var minimumPriority: LogPriority?

    /// Creates a logger.
    /// - Parameters:
    ///   - label: the part of the program (`agent`, `engine`, `mqtt`).
    ///   - handler: where its lines go; nil (the default) for the process's handler. A test gives a
    ///     capturing handler here, so that it sees only its own component's lines.
    ///   - minimumPriority: the least important priority written; nil (the default) for the process's.
    public init(label: String, handler: (any LogHandler)? = nil, minimumPriority: LogPriority? = nil) {
        self.label = label
        self.handler = handler
        self.minimumPriority = minimumPriority
    }

    /// Writes `message` with `priority`, unless the process writes only more important lines.
    public func log(_ priority: LogPriority, _ message: @autoclosure () -> String) {
        guard priority.isAtLeast(minimumPriority ?? LoggingSystem.minimumPriority) else { return }
        let record = LogRecord(label: label, priority: priority, message: message(), unixTime: LoggingSystem.clock())
        (handler ?? LoggingSystem.handler).write(record)
    }

    /// An error line (see ``LogPriority/error``).
    public func error(_ message: @autoclosure () -> String) { log(.error, message()) }
    /// A warning line (see ``LogPriority/warning``).
    public func warning(_ message: @autoclosure () -> String) { log(.warning, message()) }
    /// A notice line (see ``LogPriority/notice``).
    public func notice(_ message: @autoclosure () -> String) { log(.notice, message()) }
    /// An info line (see ``LogPriority/info``).
    public func info(_ message: @autoclosure () -> String) { log(.info, message()) }
    /// A debug line (see ``LogPriority/debug``).
    public func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }
}
