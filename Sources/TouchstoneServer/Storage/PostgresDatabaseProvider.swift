import Logging
import PostgresKit
import PostgresNIO
import SQLKit

/// PostgreSQL through a pooled `PostgresClient`: every instance of the server on one database shares all state.
final class PostgresDatabaseProvider: SQLDatabaseProvider {
    private let client: PostgresClient
    private let logger: Logger
    private let stepTimeout: Duration
    /// The client's connection pool runs in this task from ``open(url:poolSize:logger:)`` until ``shutdown()``.
    private let running: Task<Void, Never>

    private init(client: PostgresClient, stepTimeout: Duration, logger: Logger) {
        self.client = client
        self.stepTimeout = stepTimeout
        self.logger = logger
        self.running = Task { await client.run() }
    }

    /// Connects to `url` (`postgres://user:password@host:port/database?sslmode=…`).
    /// - Parameters:
    ///   - poolSize: the most connections this instance opens.
    ///   - stepTimeout: the longest a database step may take, waiting for a connection included: while PostgreSQL is
    ///     down, requests fail (503) after this instead of queueing until it is back.
    static func open(url: String, poolSize: Int, stepTimeout: Duration, logger: Logger) async throws
        -> PostgresDatabaseProvider
    {
        let core: PostgresConnection.Configuration
        do {
            core = try SQLPostgresConfiguration(url: url).coreConfiguration
        } catch {
            throw ConfigurationError("--database: not a PostgreSQL URL such as postgres://user:password@host:5432/touchstone")
        }
        guard let host = core.host, let port = core.port else {
            throw ConfigurationError("--database: the PostgreSQL URL needs a host")
        }
        let tls: PostgresClient.Configuration.TLS =
            switch (core.tls.isEnforced, core.tls.isAllowed, core.tls.sslContext?.configuration) {
            case (true, _, let tls?): .require(tls)
            case (false, true, let tls?): .prefer(tls)
            default: .disable
            }
        var configuration = PostgresClient.Configuration(
            host: host, port: port, username: core.username, password: core.password, database: core.database, tls: tls)
        configuration.options.maximumConnections = max(1, poolSize)
        configuration.options.connectTimeout = .seconds(5)
        let provider = PostgresDatabaseProvider(
            client: PostgresClient(configuration: configuration, backgroundLogger: logger), stepTimeout: stepTimeout,
            logger: logger)
        do {
            try await provider.read { try await $0.raw("SELECT 1").run() }
        } catch {
            try? await provider.shutdown()
            throw ConfigurationError("cannot connect to PostgreSQL at \(host):\(port): \(String(reflecting: error))")
        }
        return provider
    }

    func read<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        // The task group below awaits every child before returning, so `body` never outlives this call.
        try await withoutActuallyEscaping(body) { body in
            try await bounded {
                try await self.client.withConnection { connection in
                    try await body(connection.sql(queryLogLevel: nil))
                }
            }
        }
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await read(body)
    }

    func transaction<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await bounded {
            do {
                return try await self.client.withTransaction(logger: self.logger) { connection in
                    try await body(connection.sql(queryLogLevel: nil))
                }
            } catch let error as PostgresTransactionError {
                // The body's own error, once rolled back, is the caller's to handle, as on SQLite.
                if let closureError = error.closureError, error.rollbackError == nil { throw closureError }
                throw error
            }
        }
    }

    /// Runs `step`, cancelling it after ``stepTimeout``.
    private func bounded<T: Sendable>(_ step: @escaping @Sendable () async throws -> T) async throws -> T {
        let timeout = stepTimeout
        return try await withThrowingTaskGroup(of: T.self) { group in
            group.addTask { try await step() }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw DatabaseUnavailable(timeout: timeout)
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw DatabaseUnavailable(timeout: timeout) }
            return first
        }
    }

    func exclusiveLock(_ key: Int64, in database: any SQLDatabase) async throws {
        try await database.raw("SELECT pg_advisory_xact_lock(\(bind: key))").run()
    }

    /// The database did not answer in time.
    struct DatabaseUnavailable: Error, CustomStringConvertible {
        let timeout: Duration
        var description: String { "PostgreSQL did not answer within \(timeout)" }
    }

    func shutdown() async throws {
        running.cancel()
        await running.value
    }
}
