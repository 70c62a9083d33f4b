import SQLKit

/// Hands out SQLKit databases: shared ones for reads, an exclusive one for writes and transactions.
protocol SQLDatabaseProvider: Sendable {
    /// Runs read-only statements; they see every committed write.
    func read<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T
    /// Runs `body` in one transaction: all its statements commit together or not at all.
    func transaction<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T
    /// Runs one statement that commits on its own.
    func write<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T
    /// Inside a ``transaction(_:)``: waits until no other transaction holds the lock `key`, then holds it until
    /// commit (for work that must run once even when several instances start together, such as migrations).
    func exclusiveLock(_ key: Int64, in database: any SQLDatabase) async throws
    func shutdown() async throws
}
