import CSQLite
import Synchronization

/// An error SQLite reported, with its extended result code.
struct SQLiteError: Error, CustomStringConvertible {
    package let code: Int32
    package let message: String

    package var description: String { "SQLite error \(code): \(message)" }
}

/// One SQLite connection and the statements prepared on it.
///
/// Statements are prepared once per distinct SQL text and kept (SQLITE_PREPARE_PERSISTENT), so a statement the store
/// runs again is only bound, stepped and reset. SQLite runs in multi-thread mode, so a connection must be used by one
/// thread at a time: every call takes the connection's lock, which its owners leave uncontended (one writer task; a
/// pool that lends each reader to one statement at a time).
final class SQLiteConnection: Sendable {
    /// How long a statement waits for another process's lock before failing with SQLITE_BUSY.
    static let busyTimeoutMilliseconds: Int32 = 10_000
    /// More distinct statements than this (a bulk insert of an unusual size, say) are finalized rather than kept.
    private static let preparedStatementLimit = 256

    private let state: Mutex<Handle>

    /// Opens (and creates) the database file.
    package init(path: String) throws {
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let status = sqlite3_open_v2(path, &handle, flags, nil)
        guard status == SQLITE_OK, let handle else {
            let message = handle.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) } ?? "cannot open \(path)"
            sqlite3_close_v2(handle)
            throw SQLiteError(code: status, message: message)
        }
        sqlite3_extended_result_codes(handle, 1)
        state = Mutex(Handle(raw: handle))
    }

    deinit {
        close()
    }

    /// The WAL file of the main database (whether or not the connection is in WAL mode).
    var walPath: String? {
        state.withLock { sqlite3_filename_wal(sqlite3_db_filename($0.raw, "main")).map { String(cString: $0) } }
    }

    /// Waits up to `milliseconds` (sleeping) for another process's lock instead of failing with SQLITE_BUSY.
    func setBusyTimeout(milliseconds: Int32) {
        state.withLock { _ = sqlite3_busy_timeout($0.raw, milliseconds) }
    }

    /// Records the WAL's size in pages after each commit in `size`. This replaces SQLite's automatic checkpoints,
    /// which would otherwise run inside a `COMMIT`: the owner checkpoints with ``checkpoint(restart:)``.
    func recordWALSize(in size: WALSize) {
        state.withLock { handle in
            _ = sqlite3_wal_hook(
                handle.raw,
                { context, _, _, pages in
                    if let context { Unmanaged<WALSize>.fromOpaque(context).takeUnretainedValue().record(pages: Int(pages)) }
                    return SQLITE_OK
                }, Unmanaged.passUnretained(size).toOpaque())
        }
    }

    /// Copies the WAL into the database file.
    /// - Parameter restart: `false` copies what it can without waiting for anyone (SQLITE_CHECKPOINT_PASSIVE);
    ///   `true` waits (busy timeout) for readers to move to the newest snapshot, copies everything and leaves the WAL
    ///   to start over from its beginning at the next write (SQLITE_CHECKPOINT_RESTART).
    /// - Returns: `false` when another connection's checkpoint or a reader was in the way.
    @discardableResult
    func checkpoint(restart: Bool) throws -> Bool {
        let mode = restart ? SQLITE_CHECKPOINT_RESTART : SQLITE_CHECKPOINT_PASSIVE
        return try state.withLock { handle in
            let status = sqlite3_wal_checkpoint_v2(handle.raw, "main", mode, nil, nil)
            guard status == SQLITE_OK || status == SQLITE_BUSY else { throw handle.error(status) }
            return status == SQLITE_OK
        }
    }

    /// Runs one statement with its `?NNN` parameters bound to `binds`, calling `onRow` for each result row.
    package func execute(_ sql: String, binds: [SQLiteValue] = [], onRow: (SQLiteRow) throws -> Void = { _ in }) throws {
        try state.withLock { handle in
            let statement = try handle.prepared(sql)
            defer {
                sqlite3_reset(statement)
                sqlite3_clear_bindings(statement)
            }
            for (offset, value) in binds.enumerated() {
                let status = value.bind(to: statement, at: Int32(offset + 1))
                guard status == SQLITE_OK else { throw handle.error(status) }
            }
            var columns: [String]?
            while true {
                switch sqlite3_step(statement) {
                case SQLITE_ROW:
                    let names = columns ?? Self.columnNames(statement)
                    columns = names
                    try onRow(SQLiteRow(columns: names, values: Self.values(statement, count: names.count)))
                case SQLITE_DONE:
                    return
                case let status:
                    throw handle.error(status)
                }
            }
        }
    }

    /// Finalizes every statement and closes the connection; it cannot be used afterwards.
    func close() {
        state.withLock { $0.close() }
    }

    /// The `sqlite3` handle and its prepared statements: touched only under the connection's lock.
    private struct Handle {
        var raw: OpaquePointer?
        var statements: [String: OpaquePointer] = [:]

        mutating func prepared(_ sql: String) throws -> OpaquePointer {
            if let statement = statements[sql] { return statement }
            guard raw != nil else { throw SQLiteError(code: SQLITE_MISUSE, message: "the connection is closed") }
            var statement: OpaquePointer?
            var trailing = false
            let status = sql.withCString { text in
                var tail: UnsafePointer<CChar>?
                let status = sqlite3_prepare_v3(raw, text, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, &tail)
                trailing = tail.map { String(cString: $0).contains { !$0.isWhitespace && $0 != ";" } } ?? false
                return status
            }
            guard status == SQLITE_OK else { throw error(status) }
            guard let statement else { throw SQLiteError(code: SQLITE_MISUSE, message: "no statement in: \(sql)") }
            guard !trailing else {
                sqlite3_finalize(statement)
                throw SQLiteError(code: SQLITE_MISUSE, message: "one statement at a time: \(sql)")
            }
            if statements.count >= SQLiteConnection.preparedStatementLimit {
                finalizeStatements()
            }
            statements[sql] = statement
            return statement
        }

        func error(_ status: Int32) -> SQLiteError {
            SQLiteError(code: status, message: sqlite3_errmsg(raw).map { String(cString: $0) } ?? "unknown error")
        }

        mutating func close() {
            finalizeStatements()
            sqlite3_close_v2(raw)
            raw = nil
        }

        private mutating func finalizeStatements() {
            for statement in statements.values {
                sqlite3_finalize(statement)
            }
            statements.removeAll()
        }
    }

    private static func columnNames(_ statement: OpaquePointer) -> [String] {
        (0..<sqlite3_column_count(statement)).map { String(cString: sqlite3_column_name(statement, $0)) }
    }

    private static func values(_ statement: OpaquePointer, count: Int) -> [SQLiteValue] {
        (0..<Int32(count)).map { column in
            switch sqlite3_column_type(statement, column) {
            case SQLITE_INTEGER:
                return .integer(sqlite3_column_int64(statement, column))
            case SQLITE_FLOAT:
                return .real(sqlite3_column_double(statement, column))
            case SQLITE_TEXT:
                let bytes = UnsafeBufferPointer(
                    start: sqlite3_column_text(statement, column), count: Int(sqlite3_column_bytes(statement, column)))
                return .text(String(decoding: bytes, as: UTF8.self))
            case SQLITE_BLOB:
                let count = Int(sqlite3_column_bytes(statement, column))
                guard count > 0, let start = sqlite3_column_blob(statement, column) else { return .blob([]) }
                return .blob(Array(UnsafeRawBufferPointer(start: start, count: count)))
            default:
                return .null
            }
        }
    }
}

extension SQLiteValue {
    /// SQLite copies text and blobs while binding (SQLITE_TRANSIENT), so the Swift values need not outlive the call.
    fileprivate func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        switch self {
        case .null:
            return sqlite3_bind_null(statement, index)
        case .integer(let value):
            return sqlite3_bind_int64(statement, index, value)
        case .real(let value):
            return sqlite3_bind_double(statement, index, value)
        case .text(let value):
            // An empty string is still text, not NULL (which a nil pointer would bind).
            guard !value.isEmpty else { return sqlite3_bind_text(statement, index, "", 0, transient) }
            var value = value
            return value.withUTF8 { bytes in
                bytes.withMemoryRebound(to: CChar.self) {
                    sqlite3_bind_text(statement, index, $0.baseAddress, Int32($0.count), transient)
                }
            }
        case .blob(let value):
            // An empty blob is still a blob, not NULL.
            guard !value.isEmpty else { return sqlite3_bind_zeroblob(statement, index, 0) }
            return value.withUnsafeBytes { sqlite3_bind_blob(statement, index, $0.baseAddress, Int32($0.count), transient) }
        }
    }
}
