import Foundation
import Logging
import SQLKit
import Testing
import TouchstoneCrypto
import TouchstoneProtocol
import TouchstoneTestSupport

@testable import TouchstoneDomain
@testable import TouchstoneHTTP
@testable import TouchstoneServer
@testable import TouchstoneStorage

/// The one transaction a verified login writes (`commitLogin`), and the SQLite group commit it goes through.
@Suite struct LoginCommitTests {
    /// A session ready to be committed for `deviceId`, as `LoginService` prepares it.
    private func issue(
        _ harness: Harness, device: DeviceRecord, challenge: String
    ) async throws -> LoginCommit {
        let session = harness.runtime.services.sessionIssuer.prepare(
            userId: device.userId, device: device, clientId: device.clientId, amr: ["bio"], acr: "aal2", ip: nil)
        let thumbprint = try #require(device.biometricKeyThumbprint)
        return LoginCommit(
            challenge: challenge, deviceId: device.id,
            purpose: LoginService.purpose, now: harness.now,
            effect: .issue(
                session: session.record, refreshTokenHash: session.refreshTokenHash,
                signer: SigningDevice(
                    deviceId: device.id, signedWithBiometricKey: true, keyThumbprint: thumbprint, pin: nil),
                audit: AuditEvent(
                    at: harness.now, event: .login, outcome: .ok, userId: device.userId, deviceId: device.id,
                    clientId: device.clientId, ip: "127.0.0.1", detail: nil)))
    }

    private func issuedSessionId(_ commit: LoginCommit) -> String? {
        guard case .issue(let session, _, _, _) = commit.effect else { return nil }
        return session.id
    }

    @Test func aDeviceRevokedAfterItWasReadGetsNoSessionButItsChallengeAndTokenAreSpent() async throws {
        try await Harness.run { harness in
            let enrolled = try await harness.enroll(try await TestDevice())
            let device = try #require(try await harness.store.device(id: enrolled.deviceId))
            let challenge = try await harness.challenge(enrolled.deviceId)
            // The login read the device while it was active; an administrator revokes it before the commit.
            #expect(try await harness.store.revokeDevice(id: device.id, reason: "admin", at: harness.now, notices: []))
            let commit = try await issue(harness, device: device, challenge: challenge)
            #expect(try await harness.store.commitLogin(commit) == .refused(.deviceRevoked))
            let sessionId = try #require(issuedSessionId(commit))
            #expect(try await harness.store.session(id: sessionId) == nil)
            // What came before the refusal stays written: the challenge is spent, so the same assertion is refused.
            #expect(try await harness.store.commitLogin(commit) == .challengeInvalid)
            #expect(
                try await harness.store.consumeChallenge(
                    challenge, subject: device.id, purpose: LoginService.purpose, now: harness.now) == false)
        }
    }

    @Test func aBiometricKeyRemovedAfterItWasReadGetsNoSession() async throws {
        try await Harness.run { harness in
            let enrolled = try await harness.enroll(try await TestDevice())
            let device = try #require(try await harness.store.device(id: enrolled.deviceId))
            let challenge = try await harness.challenge(enrolled.deviceId)
            #expect(try await harness.store.removeBiometricKey(deviceId: device.id))
            let commit = try await issue(harness, device: device, challenge: challenge)
            #expect(try await harness.store.commitLogin(commit) == .refused(.keyRemoved))
            let audit = try await harness.store.auditEvents(since: nil, userId: device.userId)
            #expect(!audit.contains { $0.event == .login && $0.outcome.rawValue == "ok" }, "\(audit)")
        }
    }

    @Test func anAcceptedLoginStoresSessionAuditAndLastUseTogether() async throws {
        try await Harness.run { harness in
            let enrolled = try await harness.enroll(try await TestDevice())
            let device = try #require(try await harness.store.device(id: enrolled.deviceId))
            let challenge = try await harness.challenge(enrolled.deviceId)
            harness.clock.advance(by: 5)
            let commit = try await issue(harness, device: device, challenge: challenge)
            #expect(try await harness.store.commitLogin(commit) == .committed)
            let sessionId = try #require(issuedSessionId(commit))
            #expect(try await harness.store.session(id: sessionId)?.deviceId == device.id)
            #expect(try await harness.store.device(id: device.id)?.lastUsedAt?.storedSeconds == harness.now.storedSeconds)
            guard case .issue(_, let refreshTokenHash, _, _) = commit.effect else { return }
            #expect(try await harness.store.refreshToken(hash: refreshTokenHash)?.session.id == sessionId)
            let audit = try await harness.store.auditEvents(since: nil, userId: device.userId)
            #expect(audit.contains { $0.event == .login && $0.outcome.rawValue == "ok" && $0.deviceId == device.id })
            // An unknown challenge is refused.
            let other = try await issue(harness, device: device, challenge: "not-a-challenge")
            #expect(try await harness.store.commitLogin(other) == .challengeInvalid)
        }
    }

    /// Issue 20: a login's reads and writes in at most two round trips on PostgreSQL.
    @Test func aLoginIsOneStatementToReadAndOnPostgreSQLOneToWrite() async throws {
        try await Harness.run { harness in
            let enrolled = try await harness.enroll(try await TestDevice())
            let counting = StatementCountingProvider(harness.runtime.store.provider)
            let store = SQLStore(provider: counting)
            let challenge = try await harness.challenge(enrolled.deviceId)
            _ = counting.roundTrips()

            let (app, read) = try await store.loginParties(clientId: "com.example.demo", deviceId: enrolled.deviceId)
            #expect(counting.roundTrips() == 1)
            #expect(app != nil)
            #expect(app == (try await harness.store.app(clientId: "com.example.demo")))
            let device = try #require(read)
            #expect(device == (try await harness.store.device(id: enrolled.deviceId)))

            let commit = try await issue(harness, device: device, challenge: challenge)
            #expect(try await store.commitLogin(commit) == .committed)
            // SQLite's transaction runs in this process: BEGIN, five statements, COMMIT.
            #expect(counting.roundTrips() == (harness.database == .postgres ? 1 : 7))
            // The replay is refused in one statement too, and writes nothing.
            #expect(try await store.commitLogin(commit) == .challengeInvalid)
            #expect(counting.roundTrips() == (harness.database == .postgres ? 1 : 3))

            // Nothing of either is found under a name that does not exist.
            let none = try await store.loginParties(clientId: "com.example.none", deviceId: "no-such-device")
            #expect(none.app == nil && none.device == nil)
            let appOnly = try await store.loginParties(clientId: "com.example.demo", deviceId: nil)
            #expect(appOnly.app != nil && appOnly.device == nil)
            let deviceOnly = try await store.loginParties(clientId: "com.example.none", deviceId: enrolled.deviceId)
            #expect(deviceOnly.app == nil && deviceOnly.device?.id == enrolled.deviceId)
        }
    }

    @Test func concurrentWritesCommitTogetherAndAFailingOneIsRolledBackAlone() async throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "touchstone-group-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let provider = try await SQLiteDatabaseProvider.open(
            path: directory.appending(path: "db.sqlite").path, logger: logger)
        try await provider.withRunning {
            try await provider.write { try await $0.raw("CREATE TABLE t (n INTEGER PRIMARY KEY)").run() }
            struct Refused: Error {}
            let outcomes = await withTaskGroup(of: (Int, Bool).self) { group in
                for n in 0..<60 {
                    group.addTask {
                        do {
                            try await provider.transaction { database in
                                try await database.raw("INSERT INTO t (n) VALUES (\(bind: n))").run()
                                if n % 3 == 0 { throw Refused() }
                            }
                            return (n, true)
                        } catch {
                            return (n, false)
                        }
                    }
                }
                var outcomes: [Int: Bool] = [:]
                for await (n, committed) in group { outcomes[n] = committed }
                return outcomes
            }
            let stored = try await provider.read { database in
                try await database.raw("SELECT n FROM t ORDER BY n").all().map { try $0.decode(column: "n", as: Int.self) }
            }
            #expect(stored == (0..<60).filter { $0 % 3 != 0 })
            #expect(outcomes.filter(\.value).keys.sorted() == stored)
            // A conflicting write fails alone too (the SQL error undoes its statement, not the group).
            await #expect(throws: (any Error).self) {
                try await provider.write { try await $0.raw("INSERT INTO t (n) VALUES (1)").run() }
            }
            try await provider.write { try await $0.raw("INSERT INTO t (n) VALUES (1000)").run() }
            let count = try await provider.read { try await $0.raw("SELECT COUNT(*) AS c FROM t").first()?.decode(column: "c", as: Int.self) }
            #expect(count == stored.count + 1)
        }
    }
}
