import Metrics
import Logging
import PostgresKit
import PostgresNIO
import SQLKit
import Synchronization

/// PostgreSQL through a pooled `PostgresClient`: every instance of the server on one database shares all state.
package final class PostgresDatabaseProvider: SQLDatabaseProvider {
    private let client: PostgresClient
    private let logger: Logger
    private let connectionWait: Duration
    private let timer: TransactionTimer
    /// Where the server is, for the message when it cannot be reached.
    private let address: String

    private init(client: PostgresClient, connectionWait: Duration, timer: TransactionTimer, address: String, logger: Logger) {
        self.client = client
        self.connectionWait = connectionWait
        self.timer = timer
        self.address = address
        self.logger = logger
    }

    /// Prepares a pool of connections to `url`; none is opened before ``run()``. (`postgres://user:password@host:port/database?sslmode=…`).
    /// - Parameters:
    ///   - poolSize: the most connections this instance opens.
    ///   - stepTimeout: the longest one statement may run (PostgreSQL's `statement_timeout` on every connection).
    ///   - connectionWait: the longest a step may wait for a connection.
    ///   - metrics: where the durations of its transactions go (``TransactionTimer``).
    package static func open(
        url: String, poolSize: Int, stepTimeout: Duration, connectionWait: Duration, logger: Logger,
        metrics: any MetricsFactory = NOOPMetricsHandler.instance
    ) throws -> PostgresDatabaseProvider {
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
        // PostgreSQL ends any statement that runs longer than a step may.
        let (seconds, attoseconds) = stepTimeout.components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        configuration.options.additionalStartupParameters = [("statement_timeout", "\(max(1, milliseconds))")]
        return PostgresDatabaseProvider(
            client: PostgresClient(configuration: configuration, backgroundLogger: logger),
            connectionWait: connectionWait, timer: TransactionTimer(factory: metrics), address: "\(host):\(port)",
            logger: logger)
    }

    /// Runs the connection pool until a graceful shutdown or cancellation.
    package func run() async {
        await client.run()
    }

    package func ready() async throws {
        do {
            try await read { try await $0.raw("SELECT 1").run() }
        } catch {
            throw ConfigurationError("cannot connect to PostgreSQL at \(address): \(String(reflecting: error))")
        }
    }

    package func read<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        // The task group below awaits every child before returning, so `body` never outlives this call.
        try await withoutActuallyEscaping(body) { body in
            try await bounded { leased in
                try await self.client.withConnection { connection in
                    leased()
                    return try await body(connection.sql(queryLogLevel: nil))
                }
            }
        }
    }

    package func write<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await read(body)
    }

    package func transaction<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await bounded { leased in
            do {
                let start = ContinuousClock.now
                defer { self.timer.record(since: start) }
                return try await self.client.withTransaction(logger: self.logger) { connection in
                    leased()
                    return try await body(connection.sql(queryLogLevel: nil))
                }
            } catch let error as PostgresTransactionError {
                // The body's own error, once rolled back, is the caller's to handle, as on SQLite.
                if let closureError = error.closureError, error.rollbackError == nil { throw closureError }
                throw error
            }
        }
    }

    /// Runs `step`, which calls its argument once it holds a connection. Waiting for one may take up to
    /// ``connectionWait`` (a loaded pool, or a connection being opened); past it the step is cancelled and the request
    /// fails (503) instead of queueing while PostgreSQL is unreachable. Running is bounded by PostgreSQL itself: each
    /// statement by the connection's `statement_timeout` (``stepTimeout``).
    private func bounded<T: Sendable>(
        _ step: @escaping @Sendable (_ leased: @escaping @Sendable () -> Void) async throws -> T
    ) async throws -> T {
        let wait = connectionWait
        let lease = Lease()
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await step { lease.mark() } }
            group.addTask {
                try await Task.sleep(for: wait)
                guard lease.isMarked else { throw DatabaseUnavailable(what: "gave no connection within \(wait)") }
                return nil
            }
            defer { group.cancelAll() }
            while let next = try await group.next() {
                if let value = next { return value }
            }
            throw DatabaseUnavailable(what: "did not answer")
        }
    }

    /// Also lifts the statement bound for the rest of the transaction: such work (migrations) may take long.
    package func exclusiveLock(_ key: Int64, in database: any SQLDatabase) async throws {
        try await database.raw("SET LOCAL statement_timeout = 0").run()
        try await database.raw("SELECT pg_advisory_xact_lock(\(bind: key))").run()
    }

    /// The database did not answer in time.
    struct DatabaseUnavailable: Error, CustomStringConvertible {
        package let what: String
        package var description: String { "PostgreSQL \(what)" }
    }
}

/// Whether a step got its connection.
private final class Lease: Sendable {
    private let leased = Atomic<Bool>(false)

    var isMarked: Bool { leased.load(ordering: .acquiring) }

    func mark() {
        leased.store(true, ordering: .releasing)
    }
}
