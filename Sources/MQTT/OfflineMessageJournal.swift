import CSQLite
import MotionStorage
import Dispatch
import MotionSupervision
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The on-disk mirror of the offline buffer (see ``MQTTDurableOfflineBuffer``): an SQLite table of the
/// messages the client still owes the broker, keyed by a number that grows with every message, each row
/// marked with its owner (``MQTTDurableOfflineBuffer/owner``).
///
/// The client records what happens to its buffer (``insert(_:_:)`` when a message is kept, ``delete(_:)``
/// when it is acknowledged or dropped); the journal batches those changes and commits them on its own
/// queue at most every commit interval, merging an insert and a delete of the same key into nothing.
///
/// Rows of another owner (another device, or another broker, that used the same file) are kept for it and
/// never handed to this client. The journal watches its file: one replaced, truncated or overwritten while
/// in use is set aside and written again from what the journal holds, every row of it (`+Integrity`).
///
/// The agent's Sparkplug edge node keeps its store in one too (`SparkplugStore`), hence `package`.
///
/// **Threads.** `insert`, `delete` and `close` may be called from any thread; only `close` waits for the
/// disk. The database, its statements and the file watch are touched only on ``writer`` (and in `init`,
/// before the queue exists for anyone else).
package final class OfflineMessageJournal: Sendable {
    /// A message kept by an earlier run, with its key.
    package struct Recovered {
        package let key: Int64
        package let message: MQTTMessage
        /// When it was published, Unix time in seconds (its expiry counts from then).
        package let storedAt: Double
    }

    /// A row the file holds once the pending changes are committed.
    struct Row {
        let message: MQTTMessage
        /// When it was published, Unix time, s.
        let storedAt: Double
        /// Whose it is (``MQTTDurableOfflineBuffer/owner``).
        let owner: String
    }

    /// What the journal was asked to do, in order.
    private enum Change {
        case insert(Row)
        case delete
    }

    private struct Pending {
        /// Changes by key since the last commit (an insert and a later delete of one key cancel out).
        var changes: [Int64: Change] = [:]
        /// Keys in the order they were first changed, so that inserts are written oldest first.
        var order: [Int64] = []
        var commitScheduled = false
        /// When the last commit ran, s on the journal's clock (-infinity before the first).
        var lastCommit = -Double.infinity
        var closed = false
        /// Writing failed: the buffer lives in memory only from now on.
        var disabled = false
        /// Transactions committed and rows written or deleted, since opening.
        var commits = 0
        var rowsChanged = 0
        /// Every row the file holds once ``changes`` are committed: this client's and the others' (what a
        /// damaged file is written again from).
        var rows: [Int64: Row] = [:]
    }

    /// The messages the previous run left, oldest first (within the buffer's bounds), until taken.
    private let recovered: Mutex<[Recovered]>
    /// When the file was opened, Unix time in seconds.
    let openedAt: Double
    /// Recovered messages dropped to respect the bounds (the oldest).
    package let droppedAtOpen: Int
    /// The largest key in the file when it was opened (0 for none): new keys start above it.
    package let largestKey: Int64
    /// Messages in the file that belong to another owner: kept for it, not sent.
    package let othersMessages: Int
    /// The file in use.
    let path: String
    /// Whose the rows this client writes are.
    let owner: String

    let commitInterval: Double
    // Touched only on `writer` after `init` (see the type's comment); nil when the file is unusable or
    // closed (closing releases the exclusive lock, so the next client can open the file).
    nonisolated(unsafe) var database: SQLiteDatabase?
    nonisolated(unsafe) var insertStatement: SQLiteDatabase.Statement?
    nonisolated(unsafe) var deleteStatement: SQLiteDatabase.Statement?
    nonisolated(unsafe) var watch: FileWatch?
    /// The periodic look at the file while it is in use.
    let watchWork = Mutex<ScheduledWork?>(nil)
    /// What times the commits and the looks at the file.
    let clock: any SupervisionClock
    let writer = DispatchQueue(label: "MQTT.OfflineMessageJournal")
    private let pending = Mutex(Pending())
    let problems: ProblemReporter

    /// How often the file is looked at while nothing is written (a file damaged then is found before it
    /// is needed), s.
    static let watchInterval = 1.0

    /// Opens (or creates) the journal and reads what an earlier run left; a damaged file is set aside and
    /// replaced, an unusable one leaves the journal disabled. Problems are kept for ``startReporting(_:)``.
    /// - Parameters:
    ///   - configuration: the file, commit interval and owner.
    ///   - limits: the buffer's bounds; the oldest recovered messages beyond them are dropped.
    ///   - defaultOwner: the owner when the configuration names none (the client id and brokers).
    ///   - clock: what times the commits and the looks at the file (the process's clock by default).
    package init(
        configuration: MQTTDurableOfflineBuffer, limits: MQTTOfflineBufferLimits, defaultOwner: String = "",
        clock: any SupervisionClock = DispatchSupervisionClock()
    ) {
        self.clock = clock
        path = configuration.path
        commitInterval = configuration.commitInterval
        owner = configuration.owner ?? defaultOwner
        problems = ProblemReporter()
        openedAt = Self.unixTime()
        let opened = JournalFile.openFile(path, owner: owner, limits: limits, problems: problems)
        recovered = Mutex(opened.kept)
        droppedAtOpen = opened.dropped.count
        largestKey = opened.largestKey
        othersMessages = opened.others.count
        database = opened.database
        insertStatement = try? database.map(JournalFile.prepareInsert)
        deleteStatement = try? database?.prepare("DELETE FROM messages WHERE key = ?")
        if database != nil, insertStatement == nil || deleteStatement == nil {
            problems.report("offline buffer \(path): cannot prepare its statements: messages are kept in memory only")
            database = nil
        }
        var rows: [Int64: Row] = opened.others
        for kept in opened.kept { rows[kept.key] = Row(message: kept.message, storedAt: kept.storedAt, owner: owner) }
        let usable = database != nil
        pending.withLock { pending in
            pending.disabled = !usable
            pending.rows = rows
        }
        if usable {
            watch = FileWatch(path: path)
            startWatching()
        }
        for key in opened.dropped { delete(key) }
    }

    /// The messages the previous run left, oldest first; empty after the first call (the client owns
    /// them from then on, so they are not held twice).
    package func takeRecovered() -> [Recovered] {
        recovered.withLock { recovered in
            defer { recovered = [] }
            return recovered
        }
    }

    /// Unix time now, s.
    static func unixTime() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// Whether messages reach the disk (false after a failure, or when the file could not be used).
    package var isDurable: Bool { pending.withLock { !$0.disabled } }

    /// Transactions committed and rows inserted or deleted since opening (the cost of durability).
    package var writes: (commits: Int, rows: Int) { pending.withLock { ($0.commits, $0.rowsChanged) } }

    /// The newest problem reported since opening, or `nil`.
    package var lastProblem: String? { problems.last }

    /// Hands every problem so far, and every later one, to `report` (from any thread).
    package func startReporting(_ report: @escaping @Sendable (String) -> Void) {
        problems.start(report)
    }

    /// Records that `message` is kept under `key` (a key larger than every earlier one).
    package func insert(_ key: Int64, _ message: MQTTMessage) {
        record(key, .insert(Row(message: message, storedAt: Self.unixTime(), owner: owner)))
    }

    /// Records that the message kept under `key` is gone (acknowledged, or dropped by the bounds).
    package func delete(_ key: Int64) {
        record(key, .delete)
    }

    private func record(_ key: Int64, _ change: Change) {
        let now = clock.now
        let delay: Double? = pending.withLock { pending in
            guard !pending.disabled, !pending.closed else { return nil }
            switch change {
            case .insert(let row): pending.rows[key] = row
            case .delete: pending.rows[key] = nil
            }
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
            return max(0, pending.lastCommit + commitInterval - now)
        }
        if let delay { clock.schedule(on: writer, after: delay) { self.commit() } }
    }

    /// Writes what is pending and closes the file; later changes are ignored. Waits for the disk.
    /// Idempotent.
    package func close() {
        pending.withLock { $0.closed = true }
        writer.sync {
            commit()
            watchWork.withLock { $0?.cancel(); $0 = nil }
            insertStatement = nil
            deleteStatement = nil
            database = nil
            watch = nil  // after the database: its descriptor is closed last
        }
    }

    /// On `writer`: one transaction with every pending change, after a look at the file (one damaged while
    /// in use is written again whole instead).
    func commit() {
        if let damage = watch?.damage() {
            rewrite(after: damage)
            return
        }
        let now = clock.now
        let batch = pending.withLock { pending -> [(Int64, Change)] in
            defer {
                pending.changes = [:]
                pending.order = []
                pending.commitScheduled = false
                pending.lastCommit = now
            }
            guard !pending.disabled else { return [] }
            return pending.order.compactMap { key in pending.changes[key].map { (key, $0) } }
        }
        guard !batch.isEmpty, let database, let insertStatement, let deleteStatement else { return }
        do {
            try database.execute("BEGIN IMMEDIATE")
            for (key, change) in batch {
                switch change {
                case .insert(let row):
                    try JournalFile.insert(row, key: key, with: insertStatement)
                case .delete:
                    deleteStatement.reset()
                    deleteStatement.bind(1, key)
                    try deleteStatement.step()
                }
            }
            try database.execute("COMMIT")
            watch?.noteWrites()
            pending.withLock { pending in
                pending.commits += 1
                pending.rowsChanged += batch.count
            }
        } catch {
            try? database.execute("ROLLBACK")
            disable("offline buffer \(path): writing failed (\(error.message)): messages are kept in memory only from now on")
        }
    }

    /// On `writer`: the buffer in memory only from now on, said once.
    func disable(_ problem: String) {
        watchWork.withLock { $0?.cancel(); $0 = nil }
        watch = nil
        pending.withLock { $0.disabled = true }
        problems.report(problem)
    }

    /// Every row the file should hold, by key, with the pending changes taken as written (for a rewrite).
    func takeAllRows() -> [(key: Int64, row: Row)] {
        let now = clock.now
        return pending.withLock { pending in
            defer {
                pending.changes = [:]
                pending.order = []
                pending.commitScheduled = false
                pending.lastCommit = now
            }
            return pending.rows.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        }
    }

    /// Looks at the file every ``watchInterval`` on `writer`, committing what is pending (usually nothing).
    private func startWatching() {
        let work = clock.scheduleRepeating(on: writer, every: Self.watchInterval) { [weak self] in self?.commit() }
        watchWork.withLock { $0 = work }
    }
}

/// Problems found before anyone listens are kept, then handed over in order with every later one, on a
/// queue of their own: never on the journal's writer queue (a listener that closes the client there would
/// wait for that queue on itself) nor on the thread that starts the client.
final class ProblemReporter: Sendable {
    private let state = Mutex<(queued: [String], report: (@Sendable (String) -> Void)?, last: String?)>(([], nil, nil))
    private let queue = DispatchQueue(label: "MQTT.OfflineMessageJournal.problems")

    /// The newest problem, or `nil`.
    var last: String? { state.withLock { $0.last } }

    func report(_ problem: String) {
        let report = state.withLock { state -> (@Sendable (String) -> Void)? in
            state.last = problem
            if state.report == nil { state.queued.append(problem) }
            return state.report
        }
        if let report { queue.async { report(problem) } }
    }

    func start(_ report: @escaping @Sendable (String) -> Void) {
        let queued = state.withLock { state -> [String] in
            defer {
                state.queued = []
                state.report = report
            }
            return state.queued
        }
        queue.async { queued.forEach(report) }
    }
}
