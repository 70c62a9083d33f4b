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

    /// Regression (issue 30): each step ran in two tasks of its own, outside the server's `ServiceGroup`, so a step
    /// before the provider ran waited the whole connection wait. Steps run in the provider's `run()` now: one before it
    /// or after it is refused at once, and `ready()` waits for it.
    @Test(.timeLimit(.minutes(1))) func stepsBeforeTheProviderRunsAndAfterItEndsAreRefusedAtOnce() async throws {
        try await TestDatabase.with(.postgres) { url in
            let provider = try PostgresDatabaseProvider.open(
                url: url, poolSize: 1, stepTimeout: .seconds(1), connectionWait: .seconds(20), logger: Self.quietLogger)
            let started = ContinuousClock.now
            await #expect(throws: PostgresDatabaseProvider.DatabaseUnavailable.self) {
                try await provider.read { try await $0.raw("SELECT 1").run() }
            }
            let one = try await provider.withRunning {
                try await provider.read { try await $0.raw("SELECT 1 AS one").first()?.int("one") }
            }
            #expect(one == 1)
            await #expect(throws: PostgresDatabaseProvider.DatabaseUnavailable.self) {
                try await provider.read { try await $0.raw("SELECT 1").run() }
            }
            #expect(ContinuousClock.now - started < .seconds(10))
        }
    }

    /// A step that does not end when cancelled (PostgresNIO 1.33 did that to queries whose server stopped under them)
    /// is given up at its bound, and its caller answered without waiting for it.
    @Test(.timeLimit(.minutes(1))) func aStepThatIgnoresCancellationIsGivenUpAtItsBoundWithoutWaitingForIt() async throws {
        try await TestDatabase.with(.postgres) { url in
            // Given up 1 s (the connection wait) + 4 × 0.25 s (the hold limit) after it began.
            let provider = try PostgresDatabaseProvider.open(
                url: url, poolSize: 1, stepTimeout: .milliseconds(250), connectionWait: .seconds(1),
                logger: Self.quietLogger)
            try await provider.withRunning {
                let started = ContinuousClock.now
                await #expect(throws: PostgresDatabaseProvider.DatabaseUnavailable.self) {
                    try await provider.read { _ in
                        // Six seconds that cancellation does not shorten.
                        await withCheckedContinuation { continuation in
                            DispatchQueue.global().asyncAfter(deadline: .now() + 6) { continuation.resume() }
                        }
                    }
                }
                let waited = ContinuousClock.now - started
                #expect(waited >= .seconds(2) && waited < .seconds(5), "answered after \(waited)")
            }
        }
    }

    private static var quietLogger: Logger {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        return logger
    }
}
