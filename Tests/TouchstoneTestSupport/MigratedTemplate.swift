import Foundation
import Logging
import PostgresKit
import PostgresNIO
import Synchronization
import TouchstoneStorage

/// Each store's migrated template, made once per process: a test's database is a copy of it
/// (``TestDatabase/withMigrated(_:_:)``) instead of a new database that runs every migration.
///
/// The template runs the server's own migrations (`SQLStore.migrate()`, as `touchstone serve` does when it opens a
/// database) and nothing else.
/// - SQLite: a file in a directory of its own, migrated and closed, so that its WAL is checkpointed into it; a test
///   gets a copy of the file.
/// - PostgreSQL: a database migrated, then closed to connections: `CREATE DATABASE … TEMPLATE` copies a database only
///   while nobody is connected to it.
///
/// Both are removed when the process exits.
actor MigratedTemplate {
    static let shared = MigratedTemplate()

    private var templates: [TestDatabase.Kind: Task<String, any Error>] = [:]

    /// The template of `kind`: a SQLite file's path or a PostgreSQL database's name. The first caller makes it; the
    /// callers meanwhile wait for it.
    func location(of kind: TestDatabase.Kind) async throws -> String {
        if let template = templates[kind] { return try await template.value }
        let template = Task {
            switch kind {
            case .sqlite: try await Self.makeSQLite()
            case .postgres: try await Self.makePostgres()
            }
        }
        templates[kind] = template
        return try await template.value
    }

    /// Copies the SQLite template to `path`, with its WAL if closing it left one (SQLite then reads both as one).
    static func copy(sqlite template: String, to path: String) throws {
        try FileManager.default.copyItem(atPath: template, toPath: path)
        if FileManager.default.fileExists(atPath: template + "-wal") {
            try FileManager.default.copyItem(atPath: template + "-wal", toPath: path + "-wal")
        }
    }

    private static func makeSQLite() async throws -> String {
        let directory = try TestDatabase.newDirectory("touchstone-template")
        AtExit.add { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appending(path: "template.sqlite").path
        let provider = try await SQLiteDatabaseProvider.open(path: path, logger: quietLogger)
        try await provider.withRunning { try await SQLStore(provider: provider).migrate() }
        return path
    }

    private static func makePostgres() async throws -> String {
        let server = try TestDatabase.requirePostgresServer()
        let name = TestDatabase.newName("touchstone_template_")
        try await TestDatabase.maintenance(server, "CREATE DATABASE \(name)")
        AtExit.add { dropSynchronously(name, on: server) }
        let bounds = DatabaseBounds()
        let provider = try PostgresDatabaseProvider.open(
            url: TestDatabase.url(server, database: name), poolSize: 1, stepTimeout: bounds.stepTimeout,
            connectionWait: bounds.connectionWait, logger: quietLogger)
        // Its connection is closed when this returns.
        try await provider.withRunning { try await SQLStore(provider: provider).migrate() }
        try await TestDatabase.maintenance(server, "ALTER DATABASE \(name) ALLOW_CONNECTIONS false")
        return name
    }

    /// Drops a database while the process exits, when no task runs any more to do it asynchronously.
    private static func dropSynchronously(_ name: String, on server: String) {
        guard let configuration = try? SQLPostgresConfiguration(url: server).coreConfiguration,
            let connection = try? PostgresConnection.connect(
                on: PostgresConnection.defaultEventLoopGroup.any(), configuration: configuration, id: 1,
                logger: quietLogger
            ).wait()
        else { return }
        _ = try? connection.query(PostgresQuery(unsafeSQL: "DROP DATABASE IF EXISTS \(name)"), logger: quietLogger).wait()
        try? connection.close().wait()
    }

    private static let quietLogger: Logger = {
        var logger = Logger(label: "test-database-template")
        logger.logLevel = .critical
        return logger
    }()
}

/// Work for the end of the process (`atexit`), in the order it was added.
private enum AtExit {
    private static let actions = Mutex<[@Sendable () -> Void]>([])

    static func add(_ action: @escaping @Sendable () -> Void) {
        let isFirst = actions.withLock { actions in
            actions.append(action)
            return actions.count == 1
        }
        if isFirst { atexit { AtExit.runAll() } }
    }

    private static func runAll() {
        for action in actions.withLock({ $0 }) { action() }
    }
}
