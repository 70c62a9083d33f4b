import Logging
import NIOCore
import NIOPosix
import SQLKit
import SQLiteKit
import Synchronization

/// SQLite in WAL mode: one writer connection used by one task at a time, and reader connections beside it.
///
/// SQLite admits one writer at a time anyway; serializing writers here (instead of letting connections race
/// for the file lock) keeps `BEGIN IMMEDIATE … COMMIT` from interleaving and avoids busy-waiting. Writers that
/// arrive together commit together (a group commit), so that synchronous = FULL costs one fsync per group rather
/// than one per write.
final class SQLiteDatabaseProvider: SQLDatabaseProvider {
    private let writer: SQLiteConnection
    private let readers: [SQLiteConnection]
    /// SQLite's own threads, so that queries never wait behind bcrypt on the shared pool.
    private let threadPool: NIOThreadPool
    private let writerLock = AsyncLock()
    private let nextReader = Atomic<Int>(0)
    /// The group transaction open on the writer, if any; changed only while holding `writerLock`.
    private let openGroup = Mutex<CommitGroup?>(nil)

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
        // Savepoint journals (one per group-commit member) in memory, not in temporary files.
        try await database.raw("PRAGMA temp_store = MEMORY").run()
        return connection
    }

    func read<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        let index = nextReader.add(1, ordering: .relaxed).newValue
        return try await body(readers[index % readers.count].sql(queryLogLevel: nil))
    }

    func write<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await transaction(body)
    }

    /// Runs `body` as one member of a group commit: its statements run inside a savepoint of the group's
    /// `BEGIN IMMEDIATE` transaction, and it returns once the group's `COMMIT` is on disk (synchronous = FULL).
    ///
    /// The first member of a group begins the transaction and commits it once every writer that queued behind it has
    /// run its statements, so that concurrent writers share one commit and one fsync instead of one each. A member
    /// that throws is rolled back to its savepoint alone; a failure of the group (its savepoints or its `COMMIT`)
    /// fails every member. Nothing is acknowledged before it is durable.
    func transaction<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        let (outcome, group, leads) = try await writerLock.withLock {
            () async throws -> (Result<T, any Error>, CommitGroup, Bool) in
            let database = writer.sql(queryLogLevel: nil)
            var leads = false
            let group: CommitGroup
            if let open = openGroup.withLock({ $0 }) {
                group = open
            } else {
                try await database.raw("BEGIN IMMEDIATE").run()
                group = CommitGroup()
                openGroup.withLock { $0 = group }
                leads = true
            }
            return (await Self.runMember(body, in: group, on: database), group, leads)
        }
        if leads {
            // The lock is first come, first served: every writer that queued while this one ran joins the group first.
            try await writerLock.withLock {
                await self.commitOpenGroup()
            }
        }
        try await group.committed()
        return try outcome.get()
    }

    /// Runs one member's statements inside a savepoint; its failure undoes its statements only.
    private static func runMember<T: Sendable>(
        _ body: @Sendable (any SQLDatabase) async throws -> T, in group: CommitGroup, on database: any SQLDatabase
    ) async -> Result<T, any Error> {
        // After a failure the transaction may be gone; statements run now would commit on their own.
        if let failure = group.failure { return .failure(failure) }
        do {
            try await database.raw("SAVEPOINT member").run()
        } catch {
            group.fail(error)
            return .failure(error)
        }
        do {
            let value = try await body(database)
            try await database.raw("RELEASE member").run()
            return .success(value)
        } catch {
            do {
                try await database.raw("ROLLBACK TO member").run()
                try await database.raw("RELEASE member").run()
            } catch {
                // SQLite may have rolled the whole transaction back (I/O error, disk full): the group cannot commit.
                group.fail(error)
            }
            return .failure(error)
        }
    }

    /// Commits (or, after a failure, rolls back) the open group and tells its members. Call it holding the lock.
    private func commitOpenGroup() async {
        guard let group = openGroup.withLock({ group in defer { group = nil }; return group }) else { return }
        let database = writer.sql(queryLogLevel: nil)
        if let failure = group.failure {
            try? await database.raw("ROLLBACK").run()
            group.finish(.failure(failure))
            return
        }
        do {
            try await database.raw("COMMIT").run()
            group.finish(.success(()))
        } catch {
            try? await database.raw("ROLLBACK").run()
            group.finish(.failure(error))
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
