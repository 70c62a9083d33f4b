import Foundation
import Logging
import SQLKit
import ServiceLifecycle
import Testing

@testable import TouchstoneDomain
@testable import TouchstoneHTTP
@testable import TouchstoneServer
@testable import TouchstoneStorage

/// The SQLite driver under the store: values as SQLite keeps them, one statement per call, and the writer's promise
/// that nothing is acknowledged before the WAL is on disk.
@Suite struct SQLiteDriverTests {
    private static var quietLogger: Logger {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        return logger
    }

    /// A fresh directory for one test's database files.
    private func withDirectory<T>(_ body: (URL) async throws -> T) async throws -> T {
        let directory = FileManager.default.temporaryDirectory.appending(path: "touchstone-sqlite-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        return try await body(directory)
    }

    private func withProvider<T>(_ body: (SQLiteDatabaseProvider, URL) async throws -> T) async throws -> T {
        try await withDirectory { directory in
            let provider = try await SQLiteDatabaseProvider.open(
                path: directory.appending(path: "db.sqlite").path, logger: Self.quietLogger)
            return try await provider.withRunning { try await body(provider, directory) }
        }
    }

    @Test func valuesComeBackAsTheyWereBound() async throws {
        try await withProvider { provider, _ in
            try await provider.write {
                try await $0.raw("CREATE TABLE v (id INTEGER PRIMARY KEY, t TEXT, i INTEGER, r REAL, b BLOB, f INTEGER)").run()
            }
            let absent: String? = nil
            try await provider.write { database in
                try await database.raw(
                    "INSERT INTO v VALUES (1, \(bind: ""), \(bind: Int64.max), \(bind: 0.5), \(bind: Data()), \(bind: false))"
                ).run()
                try await database.raw(
                    "INSERT INTO v VALUES (2, \(bind: "héllo ✓"), \(bind: Int.min), \(bind: 2), \(bind: Data([0, 1, 255])), \(bind: true))"
                ).run()
                try await database.raw("INSERT INTO v VALUES (3, \(bind: absent), NULL, NULL, NULL, NULL)").run()
            }
            let rows = try await provider.read { database in
                try await database.raw(
                    "SELECT id, t, i, r, b, f, typeof(t) AS tt, typeof(b) AS bt FROM v ORDER BY id"
                ).all()
            }
            #expect(rows.count == 3)
            // An empty string and an empty blob are values, not NULL.
            #expect(try rows[0].decode(column: "t", as: String.self) == "")
            #expect(try rows[0].decode(column: "tt", as: String.self) == "text")
            #expect(try rows[0].decode(column: "bt", as: String.self) == "blob")
            #expect(try rows[0].decode(column: "i", as: Int64.self) == Int64.max)
            #expect(try rows[0].decode(column: "r", as: Double.self) == 0.5)
            #expect(try rows[0].decode(column: "b", as: Data.self) == Data())
            #expect(try rows[1].decode(column: "t", as: String.self) == "héllo ✓")
            #expect(try rows[1].decode(column: "i", as: Int.self) == Int.min)
            #expect(try rows[1].decode(column: "r", as: Double.self) == 2)
            #expect(try rows[0].decode(column: "f", as: Bool.self) == false)
            #expect(try rows[1].decode(column: "f", as: Bool.self) == true)
            #expect(try rows[1].decode(column: "b", as: Data.self) == Data([0, 1, 255]))
            #expect(try rows[2].decode(column: "t", as: String?.self) == nil)
            #expect(try rows[2].decodeNil(column: "i"))
            #expect(rows[2].allColumns == ["id", "t", "i", "r", "b", "f", "tt", "bt"])
            // No conversion between text and numbers, and no column that is not there.
            #expect(throws: DecodingError.self) { try rows[1].decode(column: "i", as: String.self) }
            #expect(throws: DecodingError.self) { try rows[1].decode(column: "t", as: Int.self) }
            #expect(throws: DecodingError.self) { try rows[1].decode(column: "missing", as: Int.self) }
            #expect(throws: DecodingError.self) { try rows[2].decode(column: "t", as: String.self) }
        }
    }

    @Test func oneStatementPerCallAndARefusedOneChangesNothing() async throws {
        try await withProvider { provider, _ in
            try await provider.write { try await $0.raw("CREATE TABLE t (n INTEGER PRIMARY KEY)").run() }
            await #expect(throws: SQLiteError.self) {
                try await provider.write {
                    try await $0.raw("INSERT INTO t VALUES (1); INSERT INTO t VALUES (2)").run()
                }
            }
            await #expect(throws: SQLiteError.self) {
                try await provider.read { try await $0.raw("SELECT * FROM no_such_table").run() }
            }
            let count = try await provider.read {
                try await $0.raw("SELECT COUNT(*) AS c FROM t").first()?.decode(column: "c", as: Int.self)
            }
            #expect(count == 0)
            // A trailing semicolon is still one statement.
            try await provider.write { try await $0.raw("INSERT INTO t VALUES (3);").run() }
            // The same statement again runs from its prepared form, with new values.
            for n in 4..<10 {
                try await provider.write { try await $0.raw("INSERT INTO t VALUES (\(bind: n))").run() }
            }
            let stored = try await provider.read {
                try await $0.raw("SELECT n FROM t ORDER BY n").all().map { try $0.decode(column: "n", as: Int.self) }
            }
            #expect(stored == Array(3..<10))
        }
    }

    /// Runs `writer` while `body` uses it, then stops it as a cancelled service does.
    private func whileRunning<T>(_ writer: GroupCommitWriter, _ body: () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await writer.run() }
            defer { group.cancelAll() }
            try await writer.started()
            return try await body()
        }
    }

    @Test func aWriteIsAnsweredOnlyOnceItsWALIsOnDiskAndNothingAfterAFailedFlush() async throws {
        try await withDirectory { directory in
            let path = directory.appending(path: "db.sqlite").path
            let connection = try SQLiteConnection(path: path)
            try connection.execute("PRAGMA journal_mode = WAL")
            let wal = try #require(connection.walPath)
            // The WAL as seen through a directory that does not exist yet: the first flush fails after the COMMIT.
            let later = directory.appending(path: "later")
            let writer = try GroupCommitWriter(
                connection: connection, checkpointConnection: try SQLiteConnection(path: path),
                walPath: later.appending(path: "db.sqlite-wal").path, logger: Self.quietLogger)
            try await whileRunning(writer) {
                await #expect(throws: SQLiteError.self) {
                    try await writer.transaction { try await $0.raw("CREATE TABLE t (n INTEGER)").run() }
                }
                // Now a flush would succeed, but a failed fsync may have dropped pages that a later fsync does not
                // report: the writer answers nothing as written any more.
                try FileManager.default.createDirectory(at: later, withIntermediateDirectories: true)
                try FileManager.default.createSymbolicLink(
                    atPath: later.appending(path: "db.sqlite-wal").path, withDestinationPath: wal)
                let refused = await #expect(throws: SQLiteError.self) {
                    try await writer.transaction { try await $0.raw("INSERT INTO t VALUES (1)").run() }
                }
                #expect(refused?.message.contains("restart") == true)
            }

            // A writer whose flushes succeed answers.
            let working = try GroupCommitWriter(
                connection: try SQLiteConnection(path: path), checkpointConnection: try SQLiteConnection(path: path),
                walPath: wal, logger: Self.quietLogger)
            let value = try await whileRunning(working) {
                try await working.transaction { database in
                    try await database.raw("INSERT INTO t VALUES (7)").run()
                    return 7
                }
            }
            #expect(value == 7)
            await #expect(throws: SQLiteError.self) {
                try await working.transaction { try await $0.raw("INSERT INTO t VALUES (8)").run() }
            }
        }
    }

    /// Regression (issue 30): the writer ran in a task of its own that started with the first write, outside the
    /// server's `ServiceGroup`. It runs in the provider's `run()` now: a write before that or after it is refused at
    /// once, and `ready()` waits for it.
    @Test(.timeLimit(.minutes(1))) func writesBeforeTheProviderRunsAndAfterItEndsAreRefusedAtOnce() async throws {
        try await withDirectory { directory in
            let provider = try await SQLiteDatabaseProvider.open(
                path: directory.appending(path: "db.sqlite").path, logger: Self.quietLogger)
            let early = await #expect(throws: SQLiteError.self) {
                try await provider.write { try await $0.raw("CREATE TABLE t (n INTEGER)").run() }
            }
            #expect(early?.message.contains("not running") == true)
            try await provider.withRunning {
                try await provider.write { try await $0.raw("CREATE TABLE t (n INTEGER)").run() }
            }
            let late = await #expect(throws: SQLiteError.self) {
                try await provider.write { try await $0.raw("INSERT INTO t VALUES (1)").run() }
            }
            #expect(late?.message.contains("closed") == true)
            // A provider runs once.
            await #expect(throws: SQLiteError.self) { try await provider.run() }
            await #expect(throws: SQLiteError.self) { try await provider.ready() }
        }
    }

    /// The provider as the server runs it: a `ServiceGroup`'s graceful shutdown lets the writes it took finish and
    /// puts them on disk before `run()` returns.
    @Test(.timeLimit(.minutes(1))) func aGracefulShutdownWritesEveryAcknowledgedWrite() async throws {
        try await withDirectory { directory in
            let path = directory.appending(path: "db.sqlite").path
            let provider = try await SQLiteDatabaseProvider.open(path: path, logger: Self.quietLogger)
            let group = ServiceGroup(services: [provider], logger: Self.quietLogger)
            let (answers, answered) = AsyncStream.makeStream(of: Int?.self)
            let acknowledged = try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await group.run() }
                try await provider.ready()
                try await provider.write { try await $0.raw("CREATE TABLE t (n INTEGER PRIMARY KEY)").run() }
                for n in 0..<200 {
                    tasks.addTask {
                        // Acknowledged, or refused once the shutdown has begun: never left waiting.
                        let written = try? await provider.write { try await $0.raw("INSERT INTO t VALUES (\(bind: n))").run() }
                        answered.yield(written == nil ? nil : n)
                    }
                }
                var acknowledged: Set<Int> = []
                var count = 0
                for await answer in answers {
                    if let answer { acknowledged.insert(answer) }
                    count += 1
                    // The shutdown while writes are still in flight.
                    if count == 20 { await group.triggerGracefulShutdown() }
                    if count == 200 { break }
                }
                try await tasks.waitForAll()
                return acknowledged
            }
            #expect(acknowledged.count >= 20)
            // Reopened, the file holds every write that was answered.
            let reopened = try await SQLiteDatabaseProvider.open(path: path, logger: Self.quietLogger)
            let stored = try await reopened.withRunning {
                try await reopened.read { database in
                    try await database.raw("SELECT n FROM t").all().map { try $0.decode(column: "n", as: Int.self) }
                }
            }
            #expect(Set(stored) == acknowledged)
        }
    }

    @Test func aWriteCannotStartAnotherAndReadersCannotWrite() async throws {
        try await withProvider { provider, _ in
            try await provider.write { try await $0.raw("CREATE TABLE t (n INTEGER PRIMARY KEY)").run() }
            // Waiting for a write of its own from inside a write would wait forever: it fails at once instead.
            await #expect(throws: SQLiteError.self) {
                try await provider.write { _ in
                    try await provider.write { try await $0.raw("INSERT INTO t VALUES (1)").run() }
                }
            }
            await #expect(throws: SQLiteError.self) {
                try await provider.read { try await $0.raw("INSERT INTO t VALUES (2)").run() }
            }
            let count = try await provider.read {
                try await $0.raw("SELECT COUNT(*) AS c FROM t").first()?.decode(column: "c", as: Int.self)
            }
            #expect(count == 0)
        }
    }

    @Test func theWALIsCheckpointedBesideTheWriter() async throws {
        try await withProvider { provider, directory in
            let file = directory.appending(path: "db.sqlite").path
            try await provider.write { try await $0.raw("CREATE TABLE t (n INTEGER PRIMARY KEY, b BLOB)").run() }
            let before = try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int ?? 0
            // About 1,500 pages through the WAL, far past the checkpoint interval.
            for n in 0..<1_500 {
                try await provider.write { try await $0.raw("INSERT INTO t VALUES (\(bind: n), zeroblob(4000))").run() }
            }
            var after = before
            for _ in 0..<100 where after < before + 1_000 * 4_096 {
                try await Task.sleep(for: .milliseconds(50))
                after = try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int ?? 0
            }
            // SQLite's own automatic checkpoint is off on the writer: only ours copies pages into the database file.
            #expect(after >= before + 1_000 * 4_096)
        }
    }

    @Test func theWALStaysShortWhileWritesNeverPause() async throws {
        try await withProvider { provider, directory in
            let wal = directory.appending(path: "db.sqlite-wal").path
            try await provider.write { try await $0.raw("CREATE TABLE t (n INTEGER PRIMARY KEY, b BLOB)").run() }
            // 16 writers and 4 readers that never pause: about 12,000 pages (48 MB) through the WAL.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for writer in 0..<16 {
                    group.addTask {
                        for n in 0..<750 {
                            try await provider.write {
                                try await $0.raw("INSERT INTO t VALUES (\(bind: writer * 1_000 + n), zeroblob(4000))").run()
                            }
                        }
                    }
                }
                // Readers like the server's: primary-key lookups, each its own short read transaction.
                for reader in 0..<4 {
                    group.addTask {
                        for n in 0..<3_000 {
                            _ = try await provider.read {
                                try await $0.raw("SELECT n FROM t WHERE n = \(bind: (reader * 3_000 + n) % 16_000)").first()
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
            let size = try FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int ?? 0
            // The WAL starts over at 4,000 pages (16 MB); a batch or two may run past that before it does.
            #expect(size < 24 * 1_024 * 1_024, "WAL \(size) bytes")
            let count = try await provider.read {
                try await $0.raw("SELECT COUNT(*) AS c FROM t").first()?.decode(column: "c", as: Int.self)
            }
            #expect(count == 12_000)
        }
    }
}
