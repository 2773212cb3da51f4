import MotionStorage

/// What a recording records. The raw values are the store's `kind` column: append, never renumber.
enum RecordedSensor: Int64, Sendable, CaseIterable {
    /// The accelerometer, g (Apple's signs): ``CMRecordedAccelerometerData``.
    case accelerometer = 0
    /// The gyroscope, rad/s: ``CMRecordedRotationRateData``.
    case rotationRate = 1
    /// The barometer: x the pressure in kPa, y the temperature in °C (NaN without one):
    /// ``CMRecordedPressureData``.
    case pressure = 2
}

/// One recorded sample as the store keeps it.
struct RecordedSample: Sendable, Equatable {
    /// The batch it was committed in.
    var batch: UInt64
    /// Wall-clock time, s since 1970.
    var date: Double
    /// Seconds since boot in the process that recorded it.
    var timestamp: Double
    /// The values (see ``RecordedSensor`` for their meaning and units).
    var x: Double, y: Double, z: Double
    /// The store's row of the sample (with ``date``, its place in a query).
    var row: Int64 = 0

    /// The cursor just after this sample.
    var cursor: RecordingCursor { RecordingCursor(date: date, row: row) }
}

/// Where a query continues: after the sample at this date (s since 1970) and row, in (date, row) order.
struct RecordingCursor: Sendable, Equatable {
    var date: Double
    var row: Int64

    /// Before every sample later than `date`.
    static func after(_ date: Double) -> RecordingCursor { RecordingCursor(date: date, row: .max) }
}

/// The sensor recorder's file: the recordings asked for and the samples recorded, in SQLite (WAL, so a
/// reader in another process does not block the writer; `synchronous=NORMAL`, which WAL keeps consistent
/// across a power cut, losing at most the last commits), kept across restarts of the program. Every call
/// takes the store's lock, so it may be used from any thread; the recorder calls it from its own queue,
/// never from a device's.
///
/// Layout 2: `recording (kind, start, end)`, `sample (kind, batch, date, timestamp, x, y, z)` indexed by
/// (kind, date), and `batch (id AUTOINCREMENT, kind, committed)`, so that batch numbers keep increasing
/// even when every sample has been purged. A layout-1 store (accelerometer only) is migrated on open.
final class SensorRecordingStore: @unchecked Sendable {
    /// One row to append: wall-clock time (s since 1970), seconds since boot, the values.
    typealias Row = (date: Double, timestamp: Double, x: Double, y: Double, z: Double)

    // `database` is only touched under `lock`.
    private let lock = NSLock()
    private let database: SQLiteDatabase
    /// The file.
    let path: String

    private static let layoutVersion: Int64 = 2
    private static let schema = """
        CREATE TABLE IF NOT EXISTS recording (kind INTEGER NOT NULL, start REAL NOT NULL, end REAL NOT NULL);
        CREATE TABLE IF NOT EXISTS sample (
            kind INTEGER NOT NULL, batch INTEGER NOT NULL, date REAL NOT NULL, timestamp REAL NOT NULL,
            x REAL, y REAL, z REAL);
        CREATE INDEX IF NOT EXISTS sample_by_kind_and_date ON sample (kind, date);
        CREATE TABLE IF NOT EXISTS batch (id INTEGER PRIMARY KEY AUTOINCREMENT, kind INTEGER NOT NULL, committed REAL NOT NULL);
        """

    /// Opens (creating if needed) the store at `path`; the directory must exist.
    /// - Throws: ``SQLiteError`` for a file that cannot be opened or is another program's database (which
    ///   is left as it was).
    init(path: String) throws(SQLiteError) {
        self.path = path
        database = try SQLiteDatabase(path: path)
        let version = try database.integer("PRAGMA user_version")
        let tables = try database.integer("SELECT count(*) FROM sqlite_master WHERE type = 'table'")
        guard version == Self.layoutVersion || version == 1 || (version == 0 && tables == 0) else {
            throw SQLiteError(
                code: 26 /* SQLITE_NOTADB */, operation: "open \(path)", message: "not a sensor recording store (layout \(version), \(tables) tables)")
        }
        try database.execute("PRAGMA journal_mode=WAL")
        try database.execute("PRAGMA synchronous=NORMAL")
        if version == 1 {
            // Layout 1 had the accelerometer alone: its table becomes the accelerometer's samples.
            try database.execute(
                """
                BEGIN IMMEDIATE;
                ALTER TABLE recording ADD COLUMN kind INTEGER NOT NULL DEFAULT 0;
                \(Self.schema)
                INSERT INTO sample (kind, batch, date, timestamp, x, y, z) SELECT 0, batch, date, timestamp, x, y, z FROM accelerometer;
                INSERT INTO batch (id, kind, committed) SELECT DISTINCT batch, 0, 0 FROM accelerometer;
                DROP TABLE accelerometer;
                PRAGMA user_version = \(Self.layoutVersion);
                COMMIT;
                """)
        } else {
            try database.execute(Self.schema + "PRAGMA user_version = \(Self.layoutVersion);")
        }
    }

    private func locked<Result>(_ body: () throws(SQLiteError) -> Result) throws(SQLiteError) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// Notes a recording of `sensor` from `start` to `end` (s since 1970).
    func addRecording(of sensor: RecordedSensor, start: Double, end: Double) throws(SQLiteError) {
        try locked { () throws(SQLiteError) in
            let statement = try database.prepare("INSERT INTO recording (kind, start, end) VALUES (?, ?, ?)")
            statement.bind(1, sensor.rawValue)
            statement.bind(2, start)
            statement.bind(3, end)
            try statement.step()
        }
    }

    /// The latest end of the recordings of `sensor` still running at `now`, if any.
    func recordingEnd(of sensor: RecordedSensor, after now: Double) throws(SQLiteError) -> Double? {
        try locked { () throws(SQLiteError) -> Double? in
            let statement = try database.prepare("SELECT max(end) FROM recording WHERE kind = ? AND end > ?")
            statement.bind(1, sensor.rawValue)
            statement.bind(2, now)
            guard try statement.step(), !statement.isNull(0) else { return nil }
            return statement.double(0)
        }
    }

    /// Commits `rows` of `sensor` as one new batch, in one transaction.
    /// - Parameter committed: the time of the commit, s since 1970.
    /// - Returns: the batch's identifier (larger than every one before it, of any sensor, purged or not).
    @discardableResult
    func append(_ rows: [Row], of sensor: RecordedSensor, committed: Double = 0) throws(SQLiteError) -> UInt64 {
        try locked { () throws(SQLiteError) -> UInt64 in
            try database.execute("BEGIN IMMEDIATE")
            do throws(SQLiteError) {
                let newBatch = try database.prepare("INSERT INTO batch (kind, committed) VALUES (?, ?)")
                newBatch.bind(1, sensor.rawValue)
                newBatch.bind(2, committed)
                try newBatch.step()
                let batch = database.lastInsertedRow
                let insert = try database.prepare("INSERT INTO sample (kind, batch, date, timestamp, x, y, z) VALUES (?, ?, ?, ?, ?, ?, ?)")
                for row in rows {
                    insert.bind(1, sensor.rawValue)
                    insert.bind(2, batch)
                    insert.bind(3, row.date)
                    insert.bind(4, row.timestamp)
                    insert.bind(5, row.x)
                    insert.bind(6, row.y)
                    insert.bind(7, row.z)
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

    /// Deletes the samples of `sensor` taken before `oldest`, its recordings that ended before it, and the
    /// batches committed before it (s since 1970).
    func purge(_ sensor: RecordedSensor, before oldest: Double) throws(SQLiteError) {
        try locked { () throws(SQLiteError) in
            for sql in [
                "DELETE FROM sample WHERE kind = ? AND date < ?", "DELETE FROM recording WHERE kind = ? AND end < ?",
                "DELETE FROM batch WHERE kind = ? AND committed < ?",
            ] {
                let statement = try database.prepare(sql)
                statement.bind(1, sensor.rawValue)
                statement.bind(2, oldest)
                try statement.step()
            }
        }
    }

    /// Up to `limit` samples of `sensor` taken after `cursor` and at or before `to` (s since 1970), in the
    /// order they were taken (then recorded). Served by the (kind, date) index in that order, so each page
    /// costs a seek, not a scan of the span.
    /// - Returns: the samples and the cursor to continue after.
    func samples(of sensor: RecordedSensor, after cursor: RecordingCursor, to: Double, limit: Int) throws(SQLiteError)
        -> (samples: [RecordedSample], next: RecordingCursor)
    {
        try locked { () throws(SQLiteError) -> (samples: [RecordedSample], next: RecordingCursor) in
            let statement = try database.prepare(
                """
                SELECT rowid, batch, date, timestamp, x, y, z FROM sample
                WHERE kind = ? AND date <= ? AND (date, rowid) > (?, ?) ORDER BY date, rowid LIMIT ?
                """)
            statement.bind(1, sensor.rawValue)
            statement.bind(2, to)
            statement.bind(3, cursor.date)
            statement.bind(4, cursor.row)
            statement.bind(5, Int64(limit))
            // SQLite keeps a NaN (a barometer without a thermometer) as NULL.
            func value(_ column: Int32) -> Double { statement.isNull(column) ? .nan : statement.double(column) }
            var samples: [RecordedSample] = []
            var next = cursor
            while try statement.step() {
                next = RecordingCursor(date: statement.double(2), row: statement.integer(0))
                samples.append(RecordedSample(
                    batch: UInt64(statement.integer(1)), date: statement.double(2), timestamp: statement.double(3),
                    x: value(4), y: value(5), z: value(6), row: statement.integer(0)))
            }
            return (samples, next)
        }
    }
}
