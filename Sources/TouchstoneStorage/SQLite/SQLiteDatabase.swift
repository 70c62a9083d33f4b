import Logging
import NIOCore
import NIOPosix
import SQLKit
import Synchronization

/// SQLKit on our SQLite connections: each statement runs at once on the calling thread.
///
/// A login's statements are primary-key lookups and appends that take microseconds, so they run where the request is
/// instead of hopping to another thread and back for each one; only the flush of the WAL, which waits for the disk, is
/// handed to a thread of its own (``GroupCommitWriter``).
struct SQLiteDatabase: SQLDatabase {
    /// Where a statement runs: the connection this database was given, or any idle reader.
    enum Source: Sendable {
        case connection(SQLiteConnection)
        case readers(SQLiteReaderPool)
    }

    package let source: Source
    package let logger: Logger

    var eventLoop: any EventLoop { MultiThreadedEventLoopGroup.singleton.any() }
    var dialect: any SQLDialect { SQLiteSQLDialect() }
    var queryLogLevel: Logger.Level? { nil }

    package func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        let (sql, binds) = serialize(query)
        let values = try binds.map(SQLiteValue.init(binding:))
        // The statement's text only: bound values can be secrets (token digests, password hashes).
        logger.trace("SQLite statement", metadata: ["sql": "\(sql)"])
        switch source {
        case .connection(let connection):
            try connection.execute(sql, binds: values) { onRow($0) }
        case .readers(let pool):
            try pool.withConnection { try $0.execute(sql, binds: values) { onRow($0) } }
        }
    }

    package func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void)
        -> EventLoopFuture<Void>
    {
        eventLoop.makeFutureWithTask { try await self.execute(sql: query, onRow) }
    }
}

/// Reader connections, each lent to one caller at a time; a new one is opened when all are busy.
///
/// A statement holds its reader only while it runs on the caller's thread, so the pool never grows past the number of
/// threads that run statements at once.
final class SQLiteReaderPool: Sendable {
    private let idle: Mutex<[SQLiteConnection]>
    private let open: @Sendable () throws -> SQLiteConnection

    package init(open: @escaping @Sendable () throws -> SQLiteConnection) {
        self.idle = Mutex([])
        self.open = open
    }

    func withConnection<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        let connection = try idle.withLock { $0.popLast() } ?? open()
        defer { idle.withLock { $0.append(connection) } }
        return try body(connection)
    }

    /// Closes every idle reader.
    func close() {
        idle.withLock { readers in
            for reader in readers {
                reader.close()
            }
            readers.removeAll()
        }
    }
}

/// SQLite's SQL as SQLKit writes it: numbered `?NNN` parameters and double-quoted identifiers.
struct SQLiteSQLDialect: SQLDialect {
    package var name: String { "sqlite" }
    var identifierQuote: any SQLExpression { SQLRaw("\"") }
    var literalStringQuote: any SQLExpression { SQLRaw("'") }
    var supportsAutoIncrement: Bool { false }
    var autoIncrementClause: any SQLExpression { SQLRaw("AUTOINCREMENT") }
    var supportsReturning: Bool { true }
    var upsertSyntax: SQLUpsertSyntax { .standard }

    func bindPlaceholder(at position: Int) -> any SQLExpression {
        SQLRaw("?\(position)")
    }

    func literalBoolean(_ value: Bool) -> any SQLExpression {
        SQLRaw(value ? "1" : "0")
    }
}
