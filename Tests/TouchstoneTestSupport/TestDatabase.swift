import Foundation
import Logging
import PostgresKit
import PostgresNIO

/// Fresh databases for tests: a SQLite file, and a PostgreSQL database when `TOUCHSTONE_TEST_POSTGRES` names a
/// server (`scripts/test` starts one).
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
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory.appending(path: "touchstone-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            return try await body(directory.appending(path: "db.sqlite").path)
        case .postgres:
            guard let server = postgresServer else { throw TestDatabaseError("TOUCHSTONE_TEST_POSTGRES is not set") }
            let name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
            try await maintenance(server, "CREATE DATABASE \(name)")
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

    /// `server` with its database replaced by `database`.
    public static func url(_ server: String, database: String) -> String {
        guard var components = URLComponents(string: server) else { return server }
        components.path = "/" + database
        return components.string ?? server
    }

    private static func maintenance(_ server: String, _ statement: String) async throws {
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
}

struct TestDatabaseError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
