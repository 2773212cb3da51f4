import CSQLite
import MotionStorage

/// The offline journal's SQLite file: its layout and migration, opening it (checked, migrated, read; a
/// damaged file set aside and replaced) and writing a row. Stateless: the journal owns the open database.
enum JournalFile {
    typealias Recovered = OfflineMessageJournal.Recovered
    typealias Row = OfflineMessageJournal.Row

    /// What opening found.
    struct Opened {
        /// The file, open and checked; `nil` when it cannot be used (the buffer is then in memory only).
        var database: SQLiteDatabase?
        /// This owner's messages to send again, oldest first, within the buffer's bounds.
        var kept: [Recovered] = []
        /// Keys to delete: rows that are not messages, and this owner's oldest beyond the bounds.
        var dropped: [Int64] = []
        /// The largest key in the file (0 for none): new keys start above it.
        var largestKey: Int64 = 0
        /// The rows of other owners, by key: kept in the file for them, never sent.
        var others: [Int64: Row] = [:]
    }

    /// The layout this code writes (`PRAGMA user_version`): 2 has each row's owner; 1 had none.
    private static let schemaVersion: Int64 = 2
    /// The columns of layout 1 (layout 2 adds `owner`).
    static let layout1Columns = "key, topic, payload, qos, retain, content_type, message_expiry, response_topic, correlation_data, stored_at"

    /// Opens `path` and reads it; a damaged file is set aside and replaced, an unusable one reported.
    static func openFile(_ path: String, owner: String, limits: MQTTOfflineBufferLimits, problems: ProblemReporter) -> Opened {
        var opened = Opened()
        // Opened and read in one step: a file whose rows cannot be read is as damaged as one that fails
        // its check (keeping it would mix new keys with old rows).
        func openAndLoad() throws(SQLiteError) {
            let database = try open(path, owner: owner)
            do throws(SQLiteError) {
                opened = try load(database, owner: owner, limits: limits, problems: problems)
            } catch {
                throw SQLiteError(code: SQLITE_CORRUPT, operation: error.operation, message: error.message)
            }
            opened.database = database
        }
        do throws(SQLiteError) {
            try openAndLoad()
        } catch where error.meansDamagedFile {
            let aside = DamagedFile.setAside(path, companionSuffixes: ["-wal", "-shm"])
            problems.report("offline buffer \(path) is damaged (\(error.message)); "
                + (aside.map { "set aside as \($0), starting with an empty one" } ?? "it could not be set aside"))
            opened = Opened()
            opened.database = aside == nil ? nil : try? open(path, owner: owner)
            if opened.database == nil { problems.report("offline buffer \(path) cannot be replaced: messages are kept in memory only") }
        } catch {
            problems.report("offline buffer \(path) cannot be used (\(error.message)): messages are kept in memory only")
        }
        return opened
    }

    /// Opens the file and checks it: WAL, full sync, exclusive to this process, intact, our layout. A file
    /// of layout 1 (before rows had owners) is migrated, its rows taken as `owner`'s, as that version sent
    /// them.
    static func open(_ path: String, owner: String) throws(SQLiteError) -> SQLiteDatabase {
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
        // The columns this code reads must all be there; a file without them is damaged.
        func expectColumns(_ columns: String) throws(SQLiteError) {
            do throws(SQLiteError) {
                _ = try database.prepare("SELECT \(columns) FROM messages LIMIT 0")
            } catch {
                throw SQLiteError(code: SQLITE_CORRUPT, operation: error.operation, message: error.message)
            }
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
                    correlation_data BLOB, stored_at REAL NOT NULL, owner TEXT NOT NULL);
                PRAGMA user_version = \(schemaVersion);
                """)
        case 1:
            try expectColumns(layout1Columns)
            try database.execute("BEGIN IMMEDIATE; ALTER TABLE messages ADD COLUMN owner TEXT NOT NULL DEFAULT ''")
            let adopt = try database.prepare("UPDATE messages SET owner = ?")
            adopt.bind(1, owner)
            _ = try adopt.step()
            try database.execute("PRAGMA user_version = \(schemaVersion); COMMIT")
        case schemaVersion:
            try expectColumns(columns)
        case let other:
            throw SQLiteError(code: SQLITE_CORRUPT, operation: "open \(path)", message: "unknown layout version \(other)")
        }
        return database
    }

    /// Reads the rows: `owner`'s messages oldest first, the others' kept apart. Rows that do not make a
    /// message are deleted and reported, and `owner`'s oldest beyond `limits` are returned to be deleted.
    private static func load(_ database: SQLiteDatabase, owner: String, limits: MQTTOfflineBufferLimits, problems: ProblemReporter)
        throws(SQLiteError) -> Opened
    {
        let statement = try database.prepare("SELECT \(columns) FROM messages ORDER BY key")
        var opened = Opened()
        var messages: [Recovered] = []
        var unusable: [Int64] = []
        while try statement.step() {
            let key = statement.integer(0)
            opened.largestKey = max(opened.largestKey, key)
            guard let topic = statement.text(1), !topic.isEmpty, let payload = statement.blob(2),
                  let qos = MQTTQoS(rawValue: Int32(truncatingIfNeeded: statement.integer(3))), qos != .atMostOnce
            else {
                unusable.append(key)
                continue
            }
            let expiry = statement.isNull(6) ? nil : UInt32(exactly: statement.integer(6))
            let message = MQTTMessage(
                topic: topic, payload: payload, qos: qos, retain: statement.integer(4) != 0,
                contentType: statement.text(5), messageExpiryInterval: expiry, responseTopic: statement.text(7),
                correlationData: statement.blob(8))
            let rowOwner = statement.text(10) ?? ""
            if rowOwner == owner {
                messages.append(Recovered(key: key, message: message, storedAt: statement.double(9)))
            } else {
                opened.others[key] = Row(message: message, storedAt: statement.double(9), owner: rowOwner)
            }
        }
        if !unusable.isEmpty {
            problems.report("offline buffer \(database.path): \(unusable.count) kept rows were not messages and are deleted")
        }
        let othersByOwner = Dictionary(grouping: opened.others.values, by: \.owner)
        for (other, rows) in othersByOwner.sorted(by: { $0.key < $1.key }) {
            problems.report("offline buffer \(database.path) holds \(rows.count) messages of \"\(other)\", not of \"\(owner)\": "
                + "kept in the file for it, not sent")
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
        opened.kept = Array(messages[first...])
        opened.dropped = unusable + messages[..<first].map(\.key)
        return opened
    }

    static let columns = layout1Columns + ", owner"
    private static let insertSQL = "INSERT OR REPLACE INTO messages(\(columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"

    /// Writes `row` under `key` with the prepared insert.
    static func insert(_ row: Row, key: Int64, with statement: SQLiteDatabase.Statement) throws(SQLiteError) {
        let message = row.message
        statement.reset()
        statement.bind(1, key)
        statement.bind(2, message.topic)
        statement.bind(3, message.payload)
        statement.bind(4, Int64(message.qos.rawValue))
        statement.bind(5, Int64(message.retain ? 1 : 0))
        statement.bind(6, message.contentType)
        if let expiry = message.messageExpiryInterval { statement.bind(7, Int64(expiry)) } else { statement.bind(7, nil as String?) }
        statement.bind(8, message.responseTopic)
        statement.bind(9, message.correlationData)
        statement.bind(10, row.storedAt)
        statement.bind(11, row.owner)
        try statement.step()
    }

    /// Prepares the insert statement for a new database.
    static func prepareInsert(_ database: SQLiteDatabase) throws(SQLiteError) -> SQLiteDatabase.Statement {
        try database.prepare(insertSQL)
    }
}
