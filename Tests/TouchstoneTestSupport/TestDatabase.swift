import Foundation
import Logging
import PostgresKit
import PostgresNIO

/// Fresh databases for tests: a SQLite file, and a PostgreSQL database when `TOUCHSTONE_TEST_POSTGRES` names a
/// server (`scripts/test` starts one). A database is either empty (``with(_:_:)``) or already migrated
/// (``withMigrated(_:_:)``), and each belongs to one test.
public enum TestDatabase {
    /// The stores to run a test against.
    public enum Kind: String, Sendable, CaseIterable, CustomStringConvertible {
        case sqlite, postgres
        public var description: String { rawValue }
    }

    /// SQLite always; PostgreSQL too when a test server is configured.
    public static var kinds: [Kind] {
        postgresServer == nil ? [.sqlite] : [.sqlite, .postgres]
    }

    /// The URL of the test PostgreSQL server's maintenance database.
    public static var postgresServer: String? {
        ProcessInfo.processInfo.environment["TOUCHSTONE_TEST_POSTGRES"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Runs `body` with the `--database` value of a new, empty database of `kind`, and drops it afterwards.
    public static func with<T>(_ kind: Kind, _ body: (String) async throws -> T) async throws -> T {
        switch kind {
        case .sqlite: try await withNewFile(body)
        case .postgres: try await withNewDatabase(copying: nil, body)
        }
    }

    /// Runs `body` with the `--database` value of a new database of `kind` that holds the current schema, and drops it
    /// afterwards. It is a copy of this process's migrated template of the store (``MigratedTemplate``), so the
    /// migrations run once per process instead of once per database; nothing else is in it, and a server opening it
    /// seeds it as it seeds any new database (the demo app, its signing keys).
    public static func withMigrated<T>(_ kind: Kind, _ body: (String) async throws -> T) async throws -> T {
        let template = try await MigratedTemplate.shared.location(of: kind)
        switch kind {
        case .sqlite:
            return try await withNewFile { path in
                try MigratedTemplate.copy(sqlite: template, to: path)
                return try await body(path)
            }
        case .postgres:
            return try await withNewDatabase(copying: template, body)
        }
    }

    /// `server` with its database replaced by `database`.
    public static func url(_ server: String, database: String) -> String {
        guard var components = URLComponents(string: server) else { return server }
        components.path = "/" + database
        return components.string ?? server
    }

    /// A new directory for one test's files.
    static func newDirectory(_ prefix: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appending(path: "\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// A name no other database on the server has: `prefix` and 32 hex digits.
    static func newName(_ prefix: String) -> String {
        prefix + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    }

    /// The URL of the test PostgreSQL server, or an error saying it is not configured.
    static func requirePostgresServer() throws -> String {
        guard let server = postgresServer else { throw TestDatabaseError("TOUCHSTONE_TEST_POSTGRES is not set") }
        return server
    }

    /// Runs one statement on the server's maintenance database, on a connection of its own.
    static func maintenance(_ server: String, _ statement: String) async throws {
        var logger = Logger(label: "test-database")
        logger.logLevel = .error
        let connection = try await PostgresConnection.connect(
            configuration: try SQLPostgresConfiguration(url: server).coreConfiguration, id: 1, logger: logger)
        do {
            try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
            try await connection.close()
        } catch {
            try? await connection.close()
            throw error
        }
    }

    /// A SQLite file's path in a new directory, removed afterwards.
    private static func withNewFile<T>(_ body: (String) async throws -> T) async throws -> T {
        let directory = try newDirectory("touchstone")
        defer { try? FileManager.default.removeItem(at: directory) }
        return try await body(directory.appending(path: "db.sqlite").path)
    }

    /// A new PostgreSQL database, empty or a copy of the database `template`, dropped afterwards.
    private static func withNewDatabase<T>(copying template: String?, _ body: (String) async throws -> T) async throws -> T {
        let server = try requirePostgresServer()
        let name = newName("t_")
        try await maintenance(server, "CREATE DATABASE \(name)" + (template.map { " TEMPLATE \($0)" } ?? ""))
        do {
            let result = try await body(url(server, database: name))
            try await maintenance(server, "DROP DATABASE \(name) WITH (FORCE)")
            return result
        } catch {
            try? await maintenance(server, "DROP DATABASE \(name) WITH (FORCE)")
            throw error
        }
    }
}

struct TestDatabaseError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
