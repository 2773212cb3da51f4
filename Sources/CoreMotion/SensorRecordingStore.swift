import MotionStorage

/// One recorded accelerometer sample as the store keeps it.
struct RecordedSample: Sendable, Equatable {
    /// The batch it was committed in.
    var batch: UInt64
    /// Wall-clock time, s since 1970.
    var date: Double
    /// Seconds since boot in the process that recorded it.
    var timestamp: Double
    /// Acceleration, g, Apple's signs.
    var x: Double, y: Double, z: Double
}

/// The sensor recorder's file: the recordings asked for and the samples recorded, in SQLite (WAL, so a
/// reader in another process does not block the writer), kept across restarts of the program. Every call
/// takes the store's lock, so it may be used from any thread.
final class SensorRecordingStore: @unchecked Sendable {
    // `database` is only touched under `lock`.
    private let lock = NSLock()
    private let database: SQLiteDatabase
    /// The file.
    let path: String

    private static let layoutVersion: Int64 = 1

    /// Opens (creating if needed) the store at `path`; the directory must exist.
    /// - Throws: ``SQLiteError`` for a file that cannot be opened or is another program's database.
    init(path: String) throws(SQLiteError) {
        self.path = path
        database = try SQLiteDatabase(path: path)
        try database.execute("PRAGMA journal_mode=WAL")
        let version = try database.integer("PRAGMA user_version")
        let tables = try database.integer("SELECT count(*) FROM sqlite_master WHERE type = 'table'")
        guard version == Self.layoutVersion || (version == 0 && tables == 0) else {
            throw SQLiteError(code: 26 /* SQLITE_NOTADB */, operation: "open \(path)", message: "not a sensor recording store (layout \(version), \(tables) tables)")
        }
        try database.execute(
            """
            CREATE TABLE IF NOT EXISTS recording (start REAL NOT NULL, end REAL NOT NULL);
            CREATE TABLE IF NOT EXISTS accelerometer (
                batch INTEGER NOT NULL, date REAL NOT NULL, timestamp REAL NOT NULL, x REAL NOT NULL, y REAL NOT NULL, z REAL NOT NULL);
            CREATE INDEX IF NOT EXISTS accelerometer_by_date ON accelerometer (date);
            PRAGMA user_version = \(Self.layoutVersion);
            """)
    }

    private func locked<Result>(_ body: () throws(SQLiteError) -> Result) throws(SQLiteError) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// Notes a recording from `start` to `end` (s since 1970).
    func addRecording(start: Double, end: Double) throws(SQLiteError) {
        try locked { () throws(SQLiteError) in
            let statement = try database.prepare("INSERT INTO recording (start, end) VALUES (?, ?)")
            statement.bind(1, start)
            statement.bind(2, end)
            try statement.step()
        }
    }

    /// The latest end of the recordings still running at `now`, if any.
    func recordingEnd(after now: Double) throws(SQLiteError) -> Double? {
        try locked { () throws(SQLiteError) -> Double? in
            let statement = try database.prepare("SELECT max(end) FROM recording WHERE end > ?")
            statement.bind(1, now)
            guard try statement.step(), !statement.isNull(0) else { return nil }
            return statement.double(0)
        }
    }

    /// Commits `samples` as one new batch, in one transaction.
    /// - Returns: the batch's identifier (one more than the last one committed).
    @discardableResult
    func append(_ samples: [(date: Double, timestamp: Double, x: Double, y: Double, z: Double)]) throws(SQLiteError) -> UInt64 {
        try locked { () throws(SQLiteError) -> UInt64 in
            try database.execute("BEGIN IMMEDIATE")
            do throws(SQLiteError) {
                let batch = try database.integer("SELECT coalesce(max(batch), 0) + 1 FROM accelerometer")
                let insert = try database.prepare("INSERT INTO accelerometer (batch, date, timestamp, x, y, z) VALUES (?, ?, ?, ?, ?, ?)")
                for sample in samples {
                    insert.bind(1, batch)
                    insert.bind(2, sample.date)
                    insert.bind(3, sample.timestamp)
                    insert.bind(4, sample.x)
                    insert.bind(5, sample.y)
                    insert.bind(6, sample.z)
                    try insert.step()
                    insert.reset()
                }
                try database.execute("COMMIT")
                return UInt64(batch)
            } catch {
                try? database.execute("ROLLBACK")
                throw error
            }
        }
    }

    /// Deletes the samples taken before `oldest` and the recordings that ended before it (s since 1970).
    func purge(before oldest: Double) throws(SQLiteError) {
        try locked { () throws(SQLiteError) in
            for sql in ["DELETE FROM accelerometer WHERE date < ?", "DELETE FROM recording WHERE end < ?"] {
                let statement = try database.prepare(sql)
                statement.bind(1, oldest)
                try statement.step()
            }
        }
    }

    /// Up to `limit` samples taken in (from, to], in the order they were recorded, after the row
    /// `afterRow` (0 for the first page).
    /// - Returns: the samples and the row to continue after.
    func samples(from: Double, to: Double, afterRow: Int64, limit: Int) throws(SQLiteError) -> (samples: [RecordedSample], lastRow: Int64) {
        try locked { () throws(SQLiteError) -> (samples: [RecordedSample], lastRow: Int64) in
            let statement = try database.prepare(
                "SELECT rowid, batch, date, timestamp, x, y, z FROM accelerometer WHERE date > ? AND date <= ? AND rowid > ? ORDER BY rowid LIMIT ?")
            statement.bind(1, from)
            statement.bind(2, to)
            statement.bind(3, afterRow)
            statement.bind(4, Int64(limit))
            var samples: [RecordedSample] = []
            var lastRow = afterRow
            while try statement.step() {
                lastRow = statement.integer(0)
                samples.append(RecordedSample(
                    batch: UInt64(statement.integer(1)), date: statement.double(2), timestamp: statement.double(3),
                    x: statement.double(4), y: statement.double(5), z: statement.double(6)))
            }
            return (samples, lastRow)
        }
    }
}
