/// Where and how an ``MQTTClient`` keeps its offline buffer on disk, so that QoS ≥ 1 messages waiting for
/// a connection survive a restart of the process, a SIGKILL or a power cut.
///
/// **What survives.** Every QoS ≥ 1 message published while disconnected (the offline buffer), and the
/// QoS ≥ 1 messages the broker had not acknowledged when the connection dropped or the client shut
/// down, except those published in the last ``commitInterval`` before the process died. After the next
/// start they are sent first, in their original order, before anything published later; the buffer's
/// bounds (``MQTTOfflineBufferLimits``) apply as in memory, the oldest dropped first.
///
/// **How.** An SQLite database (WAL, `synchronous=FULL`, exclusive lock) mirrors the buffer; changes are
/// written by a queue of the client's own in one transaction at most every ``commitInterval`` seconds,
/// so a 100 Hz QoS 1 stream costs 10 small transactions a second instead of 100. Nothing is written while
/// the connection is up and messages are acknowledged, except copies of unacknowledged messages when it
/// drops.
///
/// **Damage.** A file that is not a database, fails SQLite's `quick_check` or has another layout is set
/// aside as `PATH.corrupt-YYYYMMDDTHHMMSSZ` and replaced by an empty one; a file that cannot be used at
/// all (an unwritable directory, a full disk, another process holding it) leaves the buffer in memory
/// only. Each is reported as ``MQTTClientEvent/offlineBufferProblem(_:)`` and never stops the client.
public struct MQTTDurableOfflineBuffer: Sendable, Equatable {
    /// The database file, created when missing; one client per file (its directory must be writable).
    public var path: String
    /// The longest time a change waits before it is committed, s (0 commits every message at once);
    /// 0.1 by default. Also the most a SIGKILL or power cut can lose.
    public var commitInterval: Double

    /// The range ``commitInterval`` may take, s.
    public static let commitIntervalRange: ClosedRange<Double> = 0...5

    /// A durable buffer at `path`.
    /// - Parameters:
    ///   - path: the database file.
    ///   - commitInterval: s, within ``commitIntervalRange``; 0.1 by default.
    public init(path: String, commitInterval: Double = 0.1) {
        self.path = path
        self.commitInterval = commitInterval
    }
}
