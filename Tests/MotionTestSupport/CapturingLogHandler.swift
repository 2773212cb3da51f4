import MotionLog
import Synchronization

/// A log handler that keeps every record, for a test that checks what a component logs: give the
/// component `Logger(label: …, handler: capture)` and read ``records``.
public final class CapturingLogHandler: LogHandler {
    private let captured = Mutex<[LogRecord]>([])

    /// An empty capture.
    public init() {}

    public func write(_ record: LogRecord) {
        captured.withLock { $0.append(record) }
    }

    /// The records so far, oldest first.
    public var records: [LogRecord] { captured.withLock { $0 } }

    /// The messages of the records of `priority` (all of them when nil), oldest first.
    public func messages(_ priority: LogPriority? = nil) -> [String] {
        records.filter { priority == nil || $0.priority == priority }.map(\.message)
    }
}
