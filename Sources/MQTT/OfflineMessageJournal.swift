import CSQLite
import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The on-disk mirror of the offline buffer (see ``MQTTDurableOfflineBuffer``): an SQLite table of the
/// messages the client still owes the broker, keyed by a number that grows with every message.
///
/// The client records what happens to its buffer (``insert(_:_:)`` when a message is kept, ``delete(_:)``
/// when it is acknowledged or dropped); the journal batches those changes and commits them on its own
/// queue at most every commit interval, merging an insert and a delete of the same key into nothing.
///
/// **Threads.** `insert`, `delete` and `close` may be called from any thread; only `close` waits for the
/// disk. The database and its statements are touched only on ``writer`` (and in
/// `init`, before the queue exists for anyone else).
final class OfflineMessageJournal: Sendable {
    /// A message kept by an earlier run, with its key.
    struct Recovered {
        let key: Int64
        let message: MQTTMessage
        /// When it was published, Unix time in seconds (its expiry counts from then).
        let storedAt: Double
    }

    /// What the journal was asked to do, in order.
    private enum Change {
        case insert(MQTTMessage, storedAt: Double)
        case delete
    }

    private struct Pending {
        /// Changes by key since the last commit (an insert and a later delete of one key cancel out).
        var changes: [Int64: Change] = [:]
        /// Keys in the order they were first changed, so that inserts are written oldest first.
        var order: [Int64] = []
        var commitScheduled = false
        var lastCommit = DispatchTime(uptimeNanoseconds: 0)
        var closed = false
        /// Writing failed: the buffer lives in memory only from now on.
        var disabled = false
        /// Transactions committed and rows written or deleted, since opening.
        var commits = 0
        var rowsChanged = 0
    }

    /// The messages the previous run left, oldest first (within the buffer's bounds), until taken.
    private let recovered: Mutex<[Recovered]>
    /// When the file was opened, Unix time in seconds.
    let openedAt: Double
    /// Recovered messages dropped to respect the bounds (the oldest).
    let droppedAtOpen: Int
    /// The largest key in the file when it was opened (0 for none): new keys start above it.
    let largestKey: Int64
    /// The file in use.
    let path: String

    private let commitInterval: Double
    // Touched only on `writer` after `init` (see the type's comment); nil when the file is unusable or
    // closed (closing releases the exclusive lock, so the next client can open the file).
    nonisolated(unsafe) private var database: SQLiteDatabase?
    nonisolated(unsafe) private var insertStatement: SQLiteDatabase.Statement?
    nonisolated(unsafe) private var deleteStatement: SQLiteDatabase.Statement?
    private let writer = DispatchQueue(label: "MQTT.OfflineMessageJournal")
    private let pending = Mutex(Pending())
    private let problems: ProblemReporter

    /// The layout this code writes (`PRAGMA user_version`).
    private static let schemaVersion: Int64 = 1
    private static let columns = "key, topic, payload, qos, retain, content_type, message_expiry, response_topic, correlation_data"

    /// Opens (or creates) the journal and reads what an earlier run left; a damaged file is set aside and
    /// replaced, an unusable one leaves the journal disabled. Problems are kept for ``startReporting(_:)``.
    /// - Parameters:
    ///   - configuration: the file and commit interval.
    ///   - limits: the buffer's bounds; the oldest recovered messages beyond them are dropped.
    init(configuration: MQTTDurableOfflineBuffer, limits: MQTTOfflineBufferLimits) {
        path = configuration.path
        commitInterval = configuration.commitInterval
        let problems = ProblemReporter()
        self.problems = problems
        openedAt = Self.unixTime()
        var database: SQLiteDatabase?
        var recovered: [Recovered] = []
        var dropped: [Int64] = []
        var largestKey: Int64 = 0
        // Opened and read in one step: a file whose rows cannot be read is as damaged as one that fails
        // its check (keeping it would mix new keys with old rows).
        func openAndLoad() throws(SQLiteError) {
            let opened = try Self.open(configuration.path)
            do throws(SQLiteError) {
                (recovered, dropped, largestKey) = try Self.load(opened, limits: limits, problems: problems)
            } catch {
                throw SQLiteError(code: SQLITE_CORRUPT, operation: error.operation, message: error.message)
            }
            database = opened
        }
        do throws(SQLiteError) {
            try openAndLoad()
        } catch where error.meansDamagedFile {
            let aside = Self.setAside(configuration.path)
            problems.report("offline buffer \(configuration.path) is damaged (\(error.message)); "
                + (aside.map { "set aside as \($0), starting with an empty one" } ?? "it could not be set aside"))
            recovered = []
            dropped = []
            largestKey = 0
            database = aside == nil ? nil : try? Self.open(configuration.path)
            if database == nil { problems.report("offline buffer \(configuration.path) cannot be replaced: messages are kept in memory only") }
        } catch {
            problems.report("offline buffer \(configuration.path) cannot be used (\(error.message)): messages are kept in memory only")
        }
        self.recovered = Mutex(recovered)
        droppedAtOpen = dropped.count
        self.largestKey = largestKey
        self.database = database
        insertStatement = try? database?.prepare(
            "INSERT OR REPLACE INTO messages(\(Self.columns), stored_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
        deleteStatement = try? database?.prepare("DELETE FROM messages WHERE key = ?")
        if database != nil, insertStatement == nil || deleteStatement == nil {
            problems.report("offline buffer \(configuration.path): cannot prepare its statements: messages are kept in memory only")
            pending.withLock { $0.disabled = true }
        }
        if database == nil { pending.withLock { $0.disabled = true } }
        for key in dropped { delete(key) }
    }

    /// The messages the previous run left, oldest first; empty after the first call (the client owns
    /// them from then on, so they are not held twice).
    func takeRecovered() -> [Recovered] {
        recovered.withLock { recovered in
            defer { recovered = [] }
            return recovered
        }
    }

    /// Unix time now, s.
    private static func unixTime() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// Whether messages reach the disk (false after a failure, or when the file could not be used).
    var isDurable: Bool { pending.withLock { !$0.disabled } }

    /// Transactions committed and rows inserted or deleted since opening (the cost of durability).
    var writes: (commits: Int, rows: Int) { pending.withLock { ($0.commits, $0.rowsChanged) } }

    /// Hands every problem so far, and every later one, to `report` (from any thread).
    func startReporting(_ report: @escaping @Sendable (String) -> Void) {
        problems.start(report)
    }

    /// Records that `message` is kept under `key` (a key larger than every earlier one).
    func insert(_ key: Int64, _ message: MQTTMessage) {
        record(key, .insert(message, storedAt: Self.unixTime()))
    }

    /// Records that the message kept under `key` is gone (acknowledged, or dropped by the bounds).
    func delete(_ key: Int64) {
        record(key, .delete)
    }

    private func record(_ key: Int64, _ change: Change) {
        let schedule: DispatchTime? = pending.withLock { pending in
            guard !pending.disabled, !pending.closed else { return nil }
            switch (pending.changes[key], change) {
            case (.insert?, .delete):
                pending.changes[key] = nil  // never written: nothing to do
            case (nil, _):
                pending.changes[key] = change
                pending.order.append(key)
            default:
                pending.changes[key] = change
            }
            guard !pending.commitScheduled else { return nil }
            pending.commitScheduled = true
            return max(.now(), pending.lastCommit + commitInterval)
        }
        if let schedule { writer.asyncAfter(deadline: schedule) { self.commit() } }
    }

    /// Writes what is pending and closes the file; later changes are ignored. Waits for the disk.
    /// Idempotent.
    func close() {
        pending.withLock { $0.closed = true }
        writer.sync {
            commit()
            insertStatement = nil
            deleteStatement = nil
            database = nil
        }
    }


    /// On `writer`: one transaction with every pending change.
    private func commit() {
        let batch = pending.withLock { pending -> [(Int64, Change)] in
            defer {
                pending.changes = [:]
                pending.order = []
                pending.commitScheduled = false
                pending.lastCommit = .now()
            }
            guard !pending.disabled else { return [] }
            return pending.order.compactMap { key in pending.changes[key].map { (key, $0) } }
        }
        guard !batch.isEmpty, let database, let insertStatement, let deleteStatement else { return }
        do {
            try database.execute("BEGIN IMMEDIATE")
            for (key, change) in batch {
                switch change {
                case .insert(let message, let storedAt):
                    insertStatement.reset()
                    insertStatement.bind(1, key)
                    insertStatement.bind(2, message.topic)
                    insertStatement.bind(3, message.payload)
                    insertStatement.bind(4, Int64(message.qos.rawValue))
                    insertStatement.bind(5, Int64(message.retain ? 1 : 0))
                    insertStatement.bind(6, message.contentType)
                    if let expiry = message.messageExpiryInterval { insertStatement.bind(7, Int64(expiry)) } else { insertStatement.bind(7, nil as String?) }
                    insertStatement.bind(8, message.responseTopic)
                    insertStatement.bind(9, message.correlationData)
                    insertStatement.bind(10, storedAt)
                    try insertStatement.step()
                case .delete:
                    deleteStatement.reset()
                    deleteStatement.bind(1, key)
                    try deleteStatement.step()
                }
            }
            try database.execute("COMMIT")
            pending.withLock { pending in
                pending.commits += 1
                pending.rowsChanged += batch.count
            }
        } catch {
            try? database.execute("ROLLBACK")
            pending.withLock { $0.disabled = true }
            problems.report("offline buffer \(path): writing failed (\(error.message)): messages are kept in memory only from now on")
        }
    }

    // MARK: Opening

    /// Opens the file and checks it: WAL, full sync, exclusive to this process, intact, our layout.
    private static func open(_ path: String) throws(SQLiteError) -> SQLiteDatabase {
        let database = try SQLiteDatabase(path: path)
        // Small pages for a new file: each commit appends the pages it changed to the WAL, and a batch of
        // messages fills a few hundred bytes, so 1 KiB pages write a quarter of what SQLite's 4 KiB do
        // (measured with Benchmarks/offline-buffer). Ignored for an existing file.
        try database.execute("PRAGMA page_size=1024")
        // Exclusive: a second client on the same file would send the same messages twice.
        try database.execute("PRAGMA locking_mode=EXCLUSIVE")
        guard try database.text("PRAGMA journal_mode=WAL")?.lowercased() == "wal" else {
            throw SQLiteError(code: SQLITE_ERROR, operation: "set WAL mode in \(path)", message: "the journal mode could not be set to WAL")
        }
        try database.execute("PRAGMA synchronous=FULL")
        let check = try database.text("PRAGMA quick_check") ?? ""
        guard check == "ok" else {
            throw SQLiteError(code: SQLITE_CORRUPT, operation: "check \(path)", message: "quick_check: \(check)")
        }
        switch try database.integer("PRAGMA user_version") {
        case 0:
            // A new file, or another program's database: that one is not ours to change.
            guard try database.integer("SELECT count(*) FROM sqlite_master") == 0 else {
                throw SQLiteError(code: SQLITE_CORRUPT, operation: "open \(path)", message: "it is another program's database")
            }
            try database.execute("""
                CREATE TABLE IF NOT EXISTS messages(
                    key INTEGER PRIMARY KEY, topic TEXT NOT NULL, payload BLOB NOT NULL, qos INTEGER NOT NULL,
                    retain INTEGER NOT NULL, content_type TEXT, message_expiry INTEGER, response_topic TEXT,
                    correlation_data BLOB, stored_at REAL NOT NULL);
                PRAGMA user_version = \(schemaVersion);
                """)
        case schemaVersion:
            // The columns this code reads must all be there; a file without them is damaged.
            do throws(SQLiteError) {
                _ = try database.prepare("SELECT \(columns), stored_at FROM messages LIMIT 0")
            } catch {
                throw SQLiteError(code: SQLITE_CORRUPT, operation: error.operation, message: error.message)
            }
        case let other:
            throw SQLiteError(code: SQLITE_CORRUPT, operation: "open \(path)", message: "unknown layout version \(other)")
        }
        return database
    }

    /// Reads the kept messages, oldest first; rows that do not make a message are deleted and reported,
    /// and the oldest beyond `limits` are returned to be deleted.
    private static func load(_ database: SQLiteDatabase, limits: MQTTOfflineBufferLimits, problems: ProblemReporter)
        throws(SQLiteError) -> (kept: [Recovered], dropped: [Int64], largestKey: Int64)
    {
        let statement = try database.prepare("SELECT \(columns), stored_at FROM messages ORDER BY key")
        var messages: [Recovered] = []
        var unusable: [Int64] = []
        var largestKey: Int64 = 0
        while try statement.step() {
            let key = statement.integer(0)
            largestKey = max(largestKey, key)
            guard let topic = statement.text(1), !topic.isEmpty, let payload = statement.blob(2),
                  let qos = MQTTQoS(rawValue: Int32(truncatingIfNeeded: statement.integer(3))), qos != .atMostOnce
            else {
                unusable.append(key)
                continue
            }
            let expiry = statement.isNull(6) ? nil : UInt32(exactly: statement.integer(6))
            messages.append(Recovered(key: key, message: MQTTMessage(
                topic: topic, payload: payload, qos: qos, retain: statement.integer(4) != 0,
                contentType: statement.text(5), messageExpiryInterval: expiry, responseTopic: statement.text(7),
                correlationData: statement.blob(8)), storedAt: statement.double(9)))
        }
        if !unusable.isEmpty {
            problems.report("offline buffer \(database.path): \(unusable.count) kept rows were not messages and are deleted")
        }
        // The bounds as in memory: the oldest go first.
        var bytes = messages.reduce(0) { $0 + $1.message.bufferedSize }
        var first = 0
        while first < messages.count,
              messages.count - first > limits.maximumMessages || bytes > limits.maximumBytes || !limits.isEnabled
        {
            bytes -= messages[first].message.bufferedSize
            first += 1
        }
        return (Array(messages[first...]), unusable + messages[..<first].map(\.key), largestKey)
    }

    /// Renames a damaged file (and its WAL and shared-memory files) out of the way.
    /// - Returns: the new name, or `nil` when it could not be renamed.
    private static func setAside(_ path: String) -> String? {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        var stamp = [CChar](repeating: 0, count: 32)
        let length = strftime(&stamp, stamp.count, "%Y%m%dT%H%M%SZ", &parts)
        let aside = "\(path).corrupt-\(String(decoding: stamp.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self))"
        guard rename(path, aside) == 0 else { return nil }
        for suffix in ["-wal", "-shm"] { _ = rename(path + suffix, aside + suffix) }
        return aside
    }
}

/// Problems found before anyone listens are kept, then handed over in order with every later one, on a
/// queue of their own: never on the journal's writer queue (a listener that closes the client there would
/// wait for that queue on itself) nor on the thread that starts the client.
private final class ProblemReporter: Sendable {
    private let state = Mutex<(queued: [String], report: (@Sendable (String) -> Void)?)>(([], nil))
    private let queue = DispatchQueue(label: "MQTT.OfflineMessageJournal.problems")

    func report(_ problem: String) {
        let report = state.withLock { state -> (@Sendable (String) -> Void)? in
            if state.report == nil { state.queued.append(problem) }
            return state.report
        }
        if let report { queue.async { report(problem) } }
    }

    func start(_ report: @escaping @Sendable (String) -> Void) {
        let queued = state.withLock { state -> [String] in
            defer { state = ([], report) }
            return state.queued
        }
        queue.async { queued.forEach(report) }
    }
}
