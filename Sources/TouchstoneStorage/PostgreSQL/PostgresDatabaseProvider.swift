import Metrics
import Logging
import PostgresKit
import PostgresNIO
import SQLKit
import ServiceLifecycle

/// PostgreSQL through a pooled `PostgresClient`: every instance of the server on one database shares all state.
package final class PostgresDatabaseProvider: SQLDatabaseProvider {
    private let client: PostgresClient
    private let logger: Logger
    private let connectionWait: Duration
    /// How long a step may still run once the connection wait is over: a transaction is a few statements, each
    /// bounded by the statement timeout, so four of them.
    private let holdLimit: Duration
    private let timer: TransactionTimer
    /// Where the server is, for the message when it cannot be reached.
    private let address: String
    /// Steps for ``run()``, which runs each in a child task of its own.
    private let steps = RunQueue<@Sendable () async -> Void>()

    private init(
        client: PostgresClient, connectionWait: Duration, holdLimit: Duration, timer: TransactionTimer, address: String,
        logger: Logger
    ) {
        self.client = client
        self.connectionWait = connectionWait
        self.holdLimit = holdLimit
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
            connectionWait: connectionWait, holdLimit: stepTimeout * 4, timer: TransactionTimer(factory: metrics),
            address: "\(host):\(port)", logger: logger)
    }

    /// Runs the connection pool and the steps (each a child task) until a graceful shutdown or cancellation. Steps are
    /// refused before this starts and after it ends.
    /// - Throws: ``DatabaseUnavailable`` when the provider ran before: it runs once.
    package func run() async throws {
        do {
            try steps.open()
        } catch {
            throw DatabaseUnavailable(what: "\(error)")
        }
        await withDiscardingTaskGroup { group in
            group.addTask { await self.client.run() }
            await withTaskCancellationOrGracefulShutdownHandler {
                while let batch = await steps.next() {
                    for step in batch {
                        group.addTask(operation: step)
                    }
                }
            } onCancelOrGracefulShutdown: {
                self.steps.close()
            }
        }
    }

    package func ready() async throws {
        do {
            try await steps.started()
            try await read { try await $0.raw("SELECT 1").run() }
        } catch {
            throw ConfigurationError("cannot connect to PostgreSQL at \(address): \(String(reflecting: error))")
        }
    }

    package func read<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await bounded { leased in
            try await self.client.withConnection { connection in
                leased()
                return try await body(connection.sql(queryLogLevel: nil))
            }
        }
    }

    package var writesSeveralTablesInOneStatement: Bool { true }

    package func write<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await TransactionSpan.around(.postgresql) { try await read(body) }
    }

    package func transaction<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await TransactionSpan.around(.postgresql) { try await transactionStep(body) }
    }

    /// One transaction on a connection of the pool, bounded as every step is (``bounded(_:)``).
    private func transactionStep<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
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
    /// fails (503) instead of queueing while PostgreSQL is unreachable. Each statement is bounded by PostgreSQL itself
    /// (the connection's `statement_timeout`), but a server that went away mid-step bounds nothing: a step not done
    /// ``holdLimit`` after that wait is cancelled too (503), unless it lifted the bound (``exclusiveLock``).
    ///
    /// The step runs as a child task of ``run()``, raced against its deadlines (``BoundedStep``), and this call does
    /// not wait for it once it is given up: PostgresNIO 1.33 was seen not to end a query whose server stopped under it,
    /// even when cancelled (the PostgreSQL outage test).
    private func bounded<T: Sendable>(
        _ step: @escaping @Sendable (_ leased: @escaping @Sendable () -> Void) async throws -> T
    ) async throws -> T {
        let boundedStep = BoundedStep(step: step, connectionWait: connectionWait, holdLimit: holdLimit)
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    // Not when the caller was cancelled already.
                    guard boundedStep.outcome.start(continuation) else { return }
                    do {
                        try steps.submit { await boundedStep.run() }
                    } catch {
                        boundedStep.outcome.finish(.failure(DatabaseUnavailable(what: "\(error)")))
                    }
                }
            } onCancel: {
                boundedStep.outcome.finish(.failure(CancellationError()))
            }
        } catch let unavailable as DatabaseUnavailable where unavailable.gaveUp {
            logger.warning("PostgreSQL step given up", metadata: ["after": "\(connectionWait + holdLimit)"])
            throw unavailable
        }
    }

    /// Also lifts the statement bound for the rest of the transaction: such work (migrations) may take long.
    package func exclusiveLock(_ key: Int64, in database: any SQLDatabase) async throws {
        Lease.current?.unbound()
        try await database.raw("SET LOCAL statement_timeout = 0").run()
        try await database.raw("SELECT pg_advisory_xact_lock(\(bind: key))").run()
    }

    /// The database did not answer in time, or the provider is not running.
    struct DatabaseUnavailable: Error, CustomStringConvertible {
        let what: String
        /// A step that held its connection past its bound was given up.
        var gaveUp = false
        var description: String { "PostgreSQL \(what)" }
    }
}
