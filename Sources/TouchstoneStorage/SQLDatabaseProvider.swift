import SQLKit
import ServiceLifecycle

/// Hands out SQLKit databases: shared ones for reads, an exclusive one for writes and transactions.
///
/// A provider is a `Service`: the database's work runs inside its ``run()`` (SQLite's writer and its threads,
/// PostgreSQL's connection pool and steps) until a graceful shutdown or cancellation, then it finishes what it took
/// and closes the database. Nothing runs before that, and work that needs it is refused at once before it starts and
/// after it ends; ``ready()`` waits for it. A server runs it in its `ServiceGroup`, other work (admin commands, tests)
/// in ``withRunning(_:)``.
package protocol SQLDatabaseProvider: Service {
    /// Answers once the database takes statements: once ``run()`` has started, and the database answers.
    /// - Throws: ``ConfigurationError`` when it cannot be reached; an error when ``run()`` ended first.
    func ready() async throws
    /// Runs read-only statements; they see every committed write.
    func read<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T
    /// Runs `body` in one transaction: all its statements commit together or not at all.
    func transaction<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T
    /// Runs one statement that commits on its own.
    func write<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T
    /// One statement can write several tables (PostgreSQL's data-modifying `WITH`), so that work which would be a
    /// transaction of several round trips can be one ``write(_:)`` instead. SQLite has no such statement, and no
    /// round trips to save: its transactions run in this process.
    var writesSeveralTablesInOneStatement: Bool { get }
    /// Inside a ``transaction(_:)``: waits until no other transaction holds the lock `key`, then holds it until
    /// commit (for work that must run once even when several instances start together, such as migrations).
    func exclusiveLock(_ key: Int64, in database: any SQLDatabase) async throws
}

extension SQLDatabaseProvider {
    /// Runs the database while `body` uses it, then closes it.
    package func withRunning<T>(_ body: () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await self.run() }
            defer { group.cancelAll() }
            try await ready()
            return try await body()
        }
    }
}
