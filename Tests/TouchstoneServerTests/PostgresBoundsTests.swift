import Foundation
import Logging
import SQLKit
import Testing
import TouchstoneTestSupport

@testable import TouchstoneDomain
@testable import TouchstoneHTTP
@testable import TouchstoneServer
@testable import TouchstoneStorage

/// The PostgreSQL provider bounds waiting for a connection apart from running on it: a loaded pool delays requests
/// without failing them, a statement that runs too long is ended by PostgreSQL.
@Suite(.enabled(if: TestDatabase.kinds.contains(.postgres), "needs TOUCHSTONE_TEST_POSTGRES"))
struct PostgresBoundsTests {
    static func withProvider(
        _ body: @Sendable (PostgresDatabaseProvider) async throws -> Void
    ) async throws {
        try await TestDatabase.with(.postgres) { url in
            var logger = Logger(label: "test")
            logger.logLevel = .critical
            let provider = try PostgresDatabaseProvider.open(
                url: url, poolSize: 1, stepTimeout: .seconds(1), connectionWait: .seconds(20), logger: logger)
            try await provider.withRunning { try await body(provider) }
        }
    }

    /// Regression: the 3-second bound counted the wait for a connection, so steps queued behind others on a loaded
    /// machine failed with "PostgreSQL did not answer" although PostgreSQL was healthy.
    @Test func stepsQueuedForTheOneConnectionWaitLongerThanTheRunBoundAndSucceed() async throws {
        try await Self.withProvider { provider in
            // Four steps of 0.6 s each on one connection: the last waits about 1.8 s, longer than the 1 s run bound.
            let results = await withTaskGroup(of: Bool.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        (try? await provider.read { try await $0.raw("SELECT pg_sleep(0.6)").run() }) != nil
                    }
                }
                return await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(results == [true, true, true, true])
        }
    }

    @Test func aStatementThatRunsPastTheBoundIsEndedByPostgreSQL() async throws {
        try await Self.withProvider { provider in
            let started = ContinuousClock.now
            await #expect(throws: (any Error).self) {
                try await provider.read { try await $0.raw("SELECT pg_sleep(5)").run() }
            }
            #expect(ContinuousClock.now - started < .seconds(4))
            // The connection serves the next step.
            let one = try await provider.read { try await $0.raw("SELECT 1 AS one").first()?.int("one") }
            #expect(one == 1)
        }
    }
}
