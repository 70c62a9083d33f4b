import Logging
import NIOCore
import NIOPosix
import SQLKit
import SQLiteKit
import Synchronization

/// SQLite in WAL mode: one writer connection used by one task at a time, and reader connections beside it.
///
/// SQLite admits one writer at a time anyway; serializing writers here (instead of letting connections race
/// for the file lock) keeps `BEGIN IMMEDIATE … COMMIT` from interleaving and avoids busy-waiting.
final class SQLiteDatabaseProvider: SQLDatabaseProvider {
    private let writer: SQLiteConnection
    private let readers: [SQLiteConnection]
    /// SQLite's own threads, so that queries never wait behind bcrypt on the shared pool.
    private let threadPool: NIOThreadPool
    private let writerLock = AsyncLock()
    private let nextReader = Atomic<Int>(0)

    private init(writer: SQLiteConnection, readers: [SQLiteConnection], threadPool: NIOThreadPool) {
        self.writer = writer
        self.readers = readers
        self.threadPool = threadPool
    }

    /// Opens (and creates) the database file.
    /// - Parameters:
    ///   - path: the file; it is created when missing.
    ///   - readerCount: connections for reads.
    static func open(path: String, readerCount: Int = 2, logger: Logger) async throws -> SQLiteDatabaseProvider {
        let threadPool = NIOThreadPool(numberOfThreads: readerCount + 1)
        threadPool.start()
        do {
            let writer = try await Self.connect(path: path, threadPool: threadPool, logger: logger)
            try await writer.sql().raw("PRAGMA journal_mode = WAL").run()
            var readers: [SQLiteConnection] = []
            for _ in 0..<max(1, readerCount) {
                readers.append(try await Self.connect(path: path, threadPool: threadPool, logger: logger))
            }
            return SQLiteDatabaseProvider(writer: writer, readers: readers, threadPool: threadPool)
        } catch {
            try? await threadPool.shutdownGracefully()
            throw error
        }
    }

    private static func connect(path: String, threadPool: NIOThreadPool, logger: Logger) async throws
        -> SQLiteConnection
    {
        let connection = try await SQLiteConnection.open(
            storage: .file(path: path), threadPool: threadPool, logger: logger,
            on: MultiThreadedEventLoopGroup.singleton.any())
        let database = connection.sql(queryLogLevel: nil)
        // busy_timeout replaces SQLiteNIO's spinning busy handler with a sleeping one.
        try await database.raw("PRAGMA busy_timeout = 10000").run()
        // FULL: a commit is on disk before it is acknowledged, even after a power loss.
        try await database.raw("PRAGMA synchronous = FULL").run()
        try await database.raw("PRAGMA foreign_keys = ON").run()
        return connection
    }

    func read<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        let index = nextReader.add(1, ordering: .relaxed).newValue
        return try await body(readers[index % readers.count].sql(queryLogLevel: nil))
    }

    func write<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await writerLock.withLock {
            try await body(writer.sql(queryLogLevel: nil))
        }
    }

    func transaction<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await writerLock.withLock {
            let database = writer.sql(queryLogLevel: nil)
            try await database.raw("BEGIN IMMEDIATE").run()
            do {
                let result = try await body(database)
                try await database.raw("COMMIT").run()
                return result
            } catch {
                try? await database.raw("ROLLBACK").run()
                throw error
            }
        }
    }

    /// SQLite transactions already exclude each other (`BEGIN IMMEDIATE` on the one writer).
    func exclusiveLock(_ key: Int64, in database: any SQLDatabase) async throws {}

    func shutdown() async throws {
        for reader in readers {
            try await reader.close()
        }
        try await writer.close()
        try await threadPool.shutdownGracefully()
    }
}
