import CSQLite

/// `SQLITE_TRANSIENT`: SQLite copies a bound value before the call returns.
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// One open SQLite database handle, with prepared statements cached by their SQL text.
/// Not shared across threads (a container and its contexts belong to one thread, as SwiftData's main context).
final class SQLiteConnection {
    let path: String
    private var handle: OpaquePointer?
    private var statements: [String: SQLiteStatement] = [:]

    /// Opens `path` for reading and writing, creating it when `create` is true.
    init(path: String, create: Bool) throws(StoreError) {
        self.path = path
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0)
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        handle = db
        guard rc == SQLITE_OK else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
            sqlite3_close_v2(db)
            handle = nil
            throw StoreError(StoreError.kind(of: rc), path: path, code: rc, message: message)
        }
        sqlite3_extended_result_codes(db, 1)
    }

    deinit { close() }

    var isOpen: Bool { handle != nil }

    /// Closes the handle as a killed process leaves it: an open transaction is lost and the write-ahead log stays
    /// beside the file, not checkpointed (the next open recovers the saves it holds).
    func abandon() {
        if let handle { csqlite_keep_wal_on_close(handle) }
        close()
    }

    /// Finalizes every statement and closes the handle. An open transaction is rolled back, as SQLite
    /// would on the next open after the process died.
    func close() {
        for statement in statements.values { statement.finalize() }
        statements = [:]
        if let handle { sqlite3_close_v2(handle) }
        handle = nil
    }

    private func error(_ rc: Int32, _ what: String) -> StoreError {
        let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
        return StoreError(StoreError.kind(of: rc), path: path, code: rc, message: "\(what): \(message)")
    }

    /// How long a statement waits for another connection's lock before it fails with `SQLITE_BUSY`
    /// (what `PRAGMA busy_timeout` sets, without parsing a statement).
    func setBusyTimeout(milliseconds: Int32) {
        if let handle { sqlite3_busy_timeout(handle, milliseconds) }
    }

    /// Runs SQL statements that return no rows.
    func execute(_ sql: String) throws(StoreError) {
        guard let handle else { throw StoreError(.closed, path: path, message: "the database is closed") }
        let rc = sqlite3_exec(handle, sql, nil, nil, nil)
        guard rc == SQLITE_OK else { throw error(rc, sql) }
    }

    /// The cached statement for `sql`, reset and with its bindings cleared.
    func statement(_ sql: String) throws(StoreError) -> SQLiteStatement {
        if let cached = statements[sql] {
            cached.reset()
            return cached
        }
        guard let handle else { throw StoreError(.closed, path: path, message: "the database is closed") }
        var raw: OpaquePointer?
        let rc = sqlite3_prepare_v2(handle, sql, -1, &raw, nil)
        guard rc == SQLITE_OK, let raw else { throw error(rc, sql) }
        let statement = SQLiteStatement(raw, sql: sql, connection: self)
        statements[sql] = statement
        return statement
    }

    func failure(_ rc: Int32, _ sql: String) -> StoreError { error(rc, sql) }
}

/// A prepared statement: bind, step, read columns.
final class SQLiteStatement {
    private var raw: OpaquePointer?
    let sql: String
    unowned let connection: SQLiteConnection

    init(_ raw: OpaquePointer, sql: String, connection: SQLiteConnection) {
        self.raw = raw
        self.sql = sql
        self.connection = connection
    }

    func finalize() {
        sqlite3_finalize(raw)
        raw = nil
    }

    func reset() {
        sqlite3_reset(raw)
        sqlite3_clear_bindings(raw)
    }

    func bind(_ index: Int32, _ value: Int) { sqlite3_bind_int64(raw, index, Int64(value)) }
    func bindNull(_ index: Int32) { sqlite3_bind_null(raw, index) }
    func bind(_ index: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        bytes.withUnsafeBytes { raw in
            if let base = raw.baseAddress {
                _ = sqlite3_bind_text(self.raw, index, base.assumingMemoryBound(to: CChar.self), Int32(raw.count), transient)
            } else {
                _ = sqlite3_bind_text(self.raw, index, "", 0, transient)
            }
        }
    }
    func bind(_ index: Int32, blob: [UInt8]) {
        if blob.isEmpty {
            sqlite3_bind_zeroblob(raw, index, 0)
        } else {
            blob.withUnsafeBytes { bytes in _ = sqlite3_bind_blob(raw, index, bytes.baseAddress, Int32(bytes.count), transient) }
        }
    }

    /// Steps once: true when a row is available, false when done.
    func step() throws(StoreError) -> Bool {
        let rc = sqlite3_step(raw)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw connection.failure(rc, sql)
        }
    }

    /// Steps to completion (a statement that returns no rows).
    func run() throws(StoreError) {
        while try step() {}
    }

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(raw, column) == SQLITE_NULL }
    func isText(_ column: Int32) -> Bool { sqlite3_column_type(raw, column) == SQLITE_TEXT }
    func isBlob(_ column: Int32) -> Bool { sqlite3_column_type(raw, column) == SQLITE_BLOB }
    func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(raw, column)) }
    func text(_ column: Int32) -> String {
        guard let pointer = sqlite3_column_text(raw, column) else { return "" }
        let count = Int(sqlite3_column_bytes(raw, column))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }
    func blob(_ column: Int32) -> [UInt8] {
        guard let pointer = sqlite3_column_blob(raw, column) else { return [] }
        let count = Int(sqlite3_column_bytes(raw, column))
        return Array(UnsafeRawBufferPointer(start: pointer, count: count))
    }
}

extension StoreError {
    /// Whether the machine failed the store rather than the store its rules: SQLite could not read, write or open
    /// the file, or ran out of memory (I/O error, full disk, cannot open, read-only file, no memory), or GraphStore's
    /// own operation on the file failed (kind `sqlite` without a result code). A harness that made the file must
    /// not judge the store by such an error: it is the disk's or the machine's.
    public var isMachineFailure: Bool {
        guard kind == .sqlite else { return false }
        switch code & 0xff {
        case 0, SQLITE_IOERR, SQLITE_FULL, SQLITE_CANTOPEN, SQLITE_READONLY, SQLITE_NOMEM: return true
        default: return false
        }
    }

    /// The kind of an SQLite result code.
    static func kind(of rc: Int32) -> Kind {
        switch rc & 0xff {
        case SQLITE_CORRUPT: return .corrupt
        case SQLITE_NOTADB: return .notADatabase
        default: return .sqlite
        }
    }
}
