import CSQLite

/// A failed SQLite call: what was being done and SQLite's own explanation.
public struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// SQLite's (extended) result code, e.g. `SQLITE_NOTADB` (26), `SQLITE_CORRUPT` (11), `SQLITE_FULL` (13).
    public let code: Int32
    /// What failed, e.g. `open /var/lib/motion-agent/offline.db`.
    public let operation: String
    /// `sqlite3_errmsg` or `sqlite3_errstr`.
    public let message: String

    /// Creates an error.
    /// - Parameters:
    ///   - code: SQLite's (extended) result code.
    ///   - operation: what failed.
    ///   - message: SQLite's explanation, or the caller's.
    public init(code: Int32, operation: String, message: String) {
        self.code = code
        self.operation = operation
        self.message = message
    }

    /// `operation: message`.
    public var description: String { "\(operation): \(message)" }

    /// Whether the file is not a database or is damaged (what a set-aside-and-replace can mend).
    public var meansDamagedFile: Bool {
        let primary = code & 0xff
        return primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB || primary == SQLITE_FORMAT
    }
}

/// One SQLite connection, used from one thread at a time (the caller serialises), with typed results:
/// every raw `SQLITE_*` result is compared here and nowhere else. Shared by the MQTT client's offline
/// journal and CoreMotion's sensor recorder.
public final class SQLiteDatabase {
    private let handle: OpaquePointer
    /// The file, for messages.
    public let path: String

    /// Opens (creating if needed) the database file at `path`.
    /// - Throws: ``SQLiteError``.
    public init(path: String) throws(SQLiteError) {
        var handle: OpaquePointer?
        let result = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        guard result == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(result))
            if let handle { sqlite3_close_v2(handle) }
            throw SQLiteError(code: result, operation: "open \(path)", message: message)
        }
        self.handle = handle
        self.path = path
        sqlite3_extended_result_codes(handle, 1)
        // A locked file (another client on the same path) is waited for briefly instead of failing at once.
        sqlite3_busy_timeout(handle, 500)
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    private func error(_ code: Int32, _ operation: String) -> SQLiteError {
        SQLiteError(code: code, operation: "\(operation) in \(path)", message: String(cString: sqlite3_errmsg(handle)))
    }

    /// Runs SQL without results (several statements allowed).
    public func execute(_ sql: String) throws(SQLiteError) {
        let result = sqlite3_exec(handle, sql, nil, nil, nil)
        guard result == SQLITE_OK else { throw error(result, sql) }
    }

    /// The first column of the first row of a query, as text (`nil` for no row or NULL).
    public func text(_ sql: String) throws(SQLiteError) -> String? {
        let statement = try prepare(sql)
        guard try statement.step() else { return nil }
        return statement.text(0)
    }

    /// The first column of the first row of a query, as an integer (0 for no row).
    public func integer(_ sql: String) throws(SQLiteError) -> Int64 {
        let statement = try prepare(sql)
        guard try statement.step() else { return 0 }
        return statement.integer(0)
    }

    /// The rowid of the row the last successful `INSERT` on this connection added.
    public var lastInsertedRow: Int64 { sqlite3_last_insert_rowid(handle) }

    /// A prepared statement, to be used on the same thread as this database.
    public func prepare(_ sql: String) throws(SQLiteError) -> Statement {
        var statement: OpaquePointer?
        let result = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard result == SQLITE_OK, let statement else { throw error(result, "prepare \(sql)") }
        return Statement(statement, database: self, sql: sql)
    }

    /// A compiled SQL statement; bind, step, read columns, reset.
    public final class Statement {
        private let statement: OpaquePointer
        private let database: SQLiteDatabase
        private let sql: String

        fileprivate init(_ statement: OpaquePointer, database: SQLiteDatabase, sql: String) {
            self.statement = statement
            self.database = database
            self.sql = sql
        }

        deinit {
            sqlite3_finalize(statement)
        }

        /// Clears the bindings and rewinds, ready to run again.
        public func reset() {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }

        /// Binds an integer to parameter `index` (1-based).
        public func bind(_ index: Int32, _ value: Int64) { sqlite3_bind_int64(statement, index, value) }
        /// Binds a double to parameter `index` (1-based).
        public func bind(_ index: Int32, _ value: Double) { sqlite3_bind_double(statement, index, value) }

        /// Binds text (or NULL) to parameter `index` (1-based).
        public func bind(_ index: Int32, _ value: String?) {
            guard let value else { sqlite3_bind_null(statement, index); return }
            sqlite3_bind_text(statement, index, value, -1, motion_sqlite_transient())
        }

        /// Binds a blob (or NULL) to parameter `index` (1-based).
        public func bind(_ index: Int32, _ bytes: [UInt8]?) {
            guard let bytes else { sqlite3_bind_null(statement, index); return }
            _ = bytes.withUnsafeBytes { buffer in
                // A zero-length blob still needs a non-null pointer to be a blob rather than NULL.
                sqlite3_bind_blob64(statement, index, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1), UInt64(buffer.count), motion_sqlite_transient())
            }
        }

        /// Runs one step. - Returns: `true` when a row is ready, `false` when done.
        @discardableResult
        public func step() throws(SQLiteError) -> Bool {
            let result = sqlite3_step(statement)
            switch result {
            case SQLITE_ROW: return true
            case SQLITE_DONE: return false
            default: throw database.error(result, sql)
            }
        }

        /// Whether column `column` (0-based) of the current row is NULL.
        public func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }
        /// Column `column` (0-based) of the current row as an integer.
        public func integer(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }
        /// Column `column` (0-based) of the current row as a double.
        public func double(_ column: Int32) -> Double { sqlite3_column_double(statement, column) }

        /// Column `column` (0-based) of the current row as text (`nil` for NULL).
        public func text(_ column: Int32) -> String? {
            guard let text = sqlite3_column_text(statement, column) else { return nil }
            return String(cString: text)
        }

        /// Column `column` (0-based) of the current row as bytes (`nil` for NULL).
        public func blob(_ column: Int32) -> [UInt8]? {
            guard !isNull(column) else { return nil }
            let count = Int(sqlite3_column_bytes(statement, column))
            guard count > 0, let bytes = sqlite3_column_blob(statement, column) else { return [] }
            return Array(UnsafeRawBufferPointer(start: bytes, count: count))
        }
    }
}
