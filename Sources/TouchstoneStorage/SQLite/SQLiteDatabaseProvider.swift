import Metrics
import Logging
import SQLKit
import ServiceLifecycle

/// SQLite in WAL mode: one writer connection that commits in batches (``GroupCommitWriter``), and reader connections
/// beside it.
///
/// SQLite admits one writer at a time anyway; serializing writers here (instead of letting connections race for the
/// file lock) keeps transactions from interleaving and avoids busy-waiting, and lets writers that arrive together share
/// one commit and one flush to disk. Statements run on the caller's thread (``SQLiteDatabase``); only the flush, which
/// waits for the disk, runs on a thread of its own. The writer, its threads and its connections live within ``run()``,
/// the provider's `Service` life in the server's `ServiceGroup`.
package final class SQLiteDatabaseProvider: SQLDatabaseProvider {
    private let writer: GroupCommitWriter
    private let readers: SQLiteReaderPool
    private let logger: Logger

    private init(writer: GroupCommitWriter, readers: SQLiteReaderPool, logger: Logger) {
        self.writer = writer
        self.readers = readers
        self.logger = logger
    }

    /// Opens (and creates) the database file.
    /// - Parameter metrics: where the durations of its transactions go (``TransactionTimer``).
    package static func open(
        path: String, logger: Logger, metrics: any MetricsFactory = NOOPMetricsHandler.instance
    ) async throws -> SQLiteDatabaseProvider {
        let connection = try connect(path: path)
        var journalMode: String?
        try connection.execute("PRAGMA journal_mode = WAL") { journalMode = try? $0.string("journal_mode") }
        guard journalMode == "wal", let walPath = connection.walPath else {
            connection.close()
            throw ConfigurationError("--database: SQLite cannot keep \(path) in WAL mode (journal mode \(journalMode ?? "unknown"))")
        }
        let writer = try GroupCommitWriter(
            connection: connection, checkpointConnection: try connect(path: path), walPath: walPath,
            timer: TransactionTimer(factory: metrics), logger: logger)
        // A reader now, so that a file that cannot be read fails at start-up rather than at the first request.
        let readers = SQLiteReaderPool {
            let reader = try connect(path: path)
            // Writes go through the writer only.
            try reader.execute("PRAGMA query_only = 1")
            return reader
        }
        try readers.withConnection { try $0.execute("SELECT 1") }
        return SQLiteDatabaseProvider(writer: writer, readers: readers, logger: logger)
    }

    private static func connect(path: String) throws -> SQLiteConnection {
        let connection = try SQLiteConnection(path: path)
        // Another process (`touchstone admin`) may hold the write lock for a moment: wait for it, sleeping.
        connection.setBusyTimeout(milliseconds: SQLiteConnection.busyTimeoutMilliseconds)
        try connection.execute("PRAGMA foreign_keys = ON")
        // Savepoint journals (one per transaction in a batch) in memory, not in temporary files.
        try connection.execute("PRAGMA temp_store = MEMORY")
        return connection
    }

    package func read<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await body(SQLiteDatabase(source: .readers(readers), logger: logger))
    }

    package func write<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await TransactionSpan.around(.sqlite) { try await writer.transaction(body) }
    }

    /// Runs `body` in a savepoint of the writer's next batch; returns once the batch is on disk.
    package func transaction<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await TransactionSpan.around(.sqlite) { try await writer.transaction(body) }
    }

    /// SQLite transactions already exclude each other (one writer).
    package func exclusiveLock(_ key: Int64, in database: any SQLDatabase) async throws {}

    /// Runs the writer (``GroupCommitWriter/run()``) until a graceful shutdown or cancellation, then writes what is
    /// still queued, waits until it is on disk and closes the file. Writes are refused before this starts and after it
    /// ends.
    package func run() async throws {
        defer { readers.close() }
        try await writer.run()
    }

    /// Answers once ``run()`` takes writes.
    package func ready() async throws {
        try await writer.started()
    }

    package var writesSeveralTablesInOneStatement: Bool { false }
}
