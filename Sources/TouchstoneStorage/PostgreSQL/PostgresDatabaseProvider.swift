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
    /// How long a step may still run once the connection wait is over: a transaction is a few statements, each
    /// bounded by the statement timeout, so four of them.
    private let holdLimit: Duration
    private let timer: TransactionTimer
    /// Where the server is, for the message when it cannot be reached.
    private let address: String

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
    /// fails (503) instead of queueing while PostgreSQL is unreachable. Each statement is bounded by PostgreSQL itself
    /// (the connection's `statement_timeout`), but a server that went away mid-step bounds nothing: a step not done
    /// ``holdLimit`` after that wait is cancelled too (503), unless it lifted the bound (``exclusiveLock``).
    ///
    /// The step runs in a task of its own that this call does not wait for once it is given up: PostgresNIO 1.33 was
    /// seen not to end a query whose server stopped under it, even when cancelled (the PostgreSQL outage test).
    private func bounded<T: Sendable>(
        _ step: @escaping @Sendable (_ leased: @escaping @Sendable () -> Void) async throws -> T
    ) async throws -> T {
        let wait = connectionWait
        let hold = holdLimit
        let lease = Lease()
        let outcome = StepOutcome<T>()
        let logger = logger
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let work = Task {
                    do {
                        let value = try await Lease.$current.withValue(lease) { try await step { lease.mark() } }
                        outcome.finish(.success(value))
                    } catch {
                        outcome.finish(.failure(error))
                    }
                }
                let watchdog = Task {
                    do {
                        try await Task.sleep(for: wait)
                        guard lease.isMarked else {
                            throw DatabaseUnavailable(what: "gave no connection within \(wait)")
                        }
                        try await Task.sleep(for: hold)
                        guard lease.isUnbounded else {
                            logger.warning("PostgreSQL step given up", metadata: ["after": "\(wait + hold)"])
                            throw DatabaseUnavailable(what: "did not finish a step within \(wait + hold)")
                        }
                    } catch {
                        outcome.finish(.failure(error))
                    }
                }
                outcome.start(continuation) {
                    work.cancel()
                    watchdog.cancel()
                }
            }
        } onCancel: {
            outcome.finish(.failure(CancellationError()))
        }
    }

    /// Also lifts the statement bound for the rest of the transaction: such work (migrations) may take long.
    package func exclusiveLock(_ key: Int64, in database: any SQLDatabase) async throws {
        Lease.current?.unbound()
        try await database.raw("SET LOCAL statement_timeout = 0").run()
        try await database.raw("SELECT pg_advisory_xact_lock(\(bind: key))").run()
    }

    /// The database did not answer in time.
    struct DatabaseUnavailable: Error, CustomStringConvertible {
        package let what: String
        package var description: String { "PostgreSQL \(what)" }
    }
}

/// Whether a step got its connection, and whether it lifted the bound on how long it may hold it.
private final class Lease: Sendable {
    /// The lease of the step running in this task.
    @TaskLocal static var current: Lease?

    private let leased = Atomic<Bool>(false)
    private let unbounded = Atomic<Bool>(false)

    var isMarked: Bool { leased.load(ordering: .acquiring) }
    var isUnbounded: Bool { unbounded.load(ordering: .acquiring) }

    func mark() {
        leased.store(true, ordering: .releasing)
    }

    func unbound() {
        unbounded.store(true, ordering: .releasing)
    }
}

/// The answer of a bounded step: the first of its result, its watchdog's verdict, or the caller's cancellation
/// resumes the caller, once; then the step and its watchdog are cancelled.
private final class StepOutcome<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        var early: Result<T, any Error>?
        var cancel: (@Sendable () -> Void)?
        var done = false
    }

    private let state = Mutex(State())

    func start(_ continuation: CheckedContinuation<T, any Error>, cancel: @escaping @Sendable () -> Void) {
        let early: Result<T, any Error>? = state.withLock { state in
            if let early = state.early {
                return early
            }
            state.continuation = continuation
            state.cancel = cancel
            return nil
        }
        if let early {
            cancel()
            continuation.resume(with: early)
        }
    }

    func finish(_ result: Result<T, any Error>) {
        let (continuation, cancel) = state.withLock { state -> (CheckedContinuation<T, any Error>?, (@Sendable () -> Void)?) in
            guard !state.done else { return (nil, nil) }
            state.done = true
            guard let continuation = state.continuation else {
                state.early = result
                return (nil, nil)
            }
            defer { state.continuation = nil; state.cancel = nil }
            return (continuation, state.cancel)
        }
        cancel?()
        continuation?.resume(with: result)
    }
}
