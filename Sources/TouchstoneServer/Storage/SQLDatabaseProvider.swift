import SQLKit

/// Hands out SQLKit databases: shared ones for reads, an exclusive one for writes and transactions.
protocol SQLDatabaseProvider: Sendable {
    /// Runs read-only statements; they see every committed write.
    func read<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T
    /// Runs `body` in one transaction: all its statements commit together or not at all.
    func transaction<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T
    /// Runs one statement that commits on its own.
    func write<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T
    func shutdown() async throws
}
