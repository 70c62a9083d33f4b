import Logging
import NIOCore
import SQLKit
import Synchronization

@testable import TouchstoneStorage

/// A database provider that counts the round trips it sends to the one it wraps: every statement, and a
/// transaction's `BEGIN` and `COMMIT`.
final class StatementCountingProvider: SQLDatabaseProvider {
    private let base: any SQLDatabaseProvider
    private let count = Atomic<Int>(0)

    init(_ base: any SQLDatabaseProvider) {
        self.base = base
    }

    /// The round trips since the last call, which starts the count again.
    func roundTrips() -> Int {
        count.exchange(0, ordering: .relaxed)
    }

    var writesSeveralTablesInOneStatement: Bool { base.writesSeveralTablesInOneStatement }

    func run() async throws { try await base.run() }
    func ready() async throws { try await base.ready() }

    func read<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await base.read { try await body(CountingDatabase(base: $0, provider: self)) }
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await base.write { try await body(CountingDatabase(base: $0, provider: self)) }
    }

    func transaction<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        count.add(2, ordering: .relaxed)
        return try await base.transaction { try await body(CountingDatabase(base: $0, provider: self)) }
    }

    func exclusiveLock(_ key: Int64, in database: any SQLDatabase) async throws {
        try await base.exclusiveLock(key, in: database)
    }

    fileprivate func counted() {
        count.add(1, ordering: .relaxed)
    }
}

private struct CountingDatabase: SQLDatabase {
    let base: any SQLDatabase
    let provider: StatementCountingProvider

    var logger: Logger { base.logger }
    var eventLoop: any EventLoop { base.eventLoop }
    var version: (any SQLDatabaseReportedVersion)? { base.version }
    var dialect: any SQLDialect { base.dialect }
    var queryLogLevel: Logger.Level? { base.queryLogLevel }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<Void> {
        provider.counted()
        return base.execute(sql: query, onRow)
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        provider.counted()
        try await base.execute(sql: query, onRow)
    }
}
