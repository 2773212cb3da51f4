/// Where and how an ``MQTTClient`` keeps its offline buffer on disk, so that QoS ≥ 1 messages waiting for
/// a connection survive a restart of the process, a SIGKILL or a power cut.
///
/// **What survives.** Every QoS ≥ 1 message the broker has not acknowledged (published while
/// disconnected, or sent and still waiting for its acknowledgement, which on a link that fails silently
/// can take a keepalive to give up on), except those published in the last ``commitInterval`` before the
/// process died. After the next start they are sent first, in their original order, before anything
/// published later, with their message expiry counted from their publication; the buffer's bounds
/// (``MQTTOfflineBufferLimits``) apply as in memory, the oldest dropped first.
///
/// **How.** An SQLite database (WAL, `synchronous=FULL`, exclusive lock, 1 KiB pages) journals every
/// QoS ≥ 1 message when it is published and deletes it when the broker acknowledges it (or the bounds
/// drop it). A queue of the client's own commits the changes in one transaction at most every
/// ``commitInterval`` seconds, and a message acknowledged before its commit is never written, so while the
/// broker acknowledges within the interval nothing reaches the disk, and a 100 Hz QoS 1 outage costs 10
/// small transactions a second instead of 100. With an interval of 0 every message is written and
/// deleted, connected or not.
///
/// **Whose.** Every row is marked with its ``owner``; a client sends only its own. Rows another owner left in
/// the file (another device started on the same path, or the same device pointed at another broker) stay
/// in it for that owner, are counted in ``MQTTClientStatistics/offlineBufferOthersMessages`` and reported.
///
/// **Damage.** A file that is not a database, fails SQLite's `quick_check` or has another layout is set
/// aside as `PATH.corrupt-YYYYMMDDTHHMMSSZ` and replaced by an empty one. A file changed while in use
/// (replaced, removed, cut short, its header overwritten) is found at the next commit or within a second,
/// set aside, and written again whole from what the client holds. A file that cannot be used at all (an
/// unwritable directory, a full disk, another process holding it) leaves the buffer in memory only. Each
/// is reported as ``MQTTClientEvent/offlineBufferProblem(_:)`` and never stops the client.
public struct MQTTDurableOfflineBuffer: Sendable, Equatable {
    /// The database file, created when missing; one client per file (its directory must be writable).
    public var path: String
    /// The longest time a change waits before it is committed, s (0 commits every message at once);
    /// 0.1 by default. Also the most a SIGKILL or power cut can lose.
    public var commitInterval: Double

    /// Whose the messages this client keeps are: a client sends only the rows of its owner. `nil`: the
    /// client id and the brokers (`CLIENT_ID at HOST:PORT[, HOST:PORT…]`); an application names what its
    /// messages really belong to (the agent: its base topic and brokers).
    public var owner: String?

    /// The range ``commitInterval`` may take, s.
    public static let commitIntervalRange: ClosedRange<Double> = 0...5

    /// A durable buffer at `path`.
    /// - Parameters:
    ///   - path: the database file.
    ///   - commitInterval: s, within ``commitIntervalRange``; 0.1 by default.
    ///   - owner: whose the messages are (see ``owner``).
    public init(path: String, commitInterval: Double = 0.1, owner: String? = nil) {
        self.path = path
        self.commitInterval = commitInterval
        self.owner = owner
    }
}
