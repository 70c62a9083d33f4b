import Foundation
import Testing

@testable import TouchstoneDomain
@testable import TouchstoneHTTP
@testable import TouchstoneServer
@testable import TouchstoneStorage

@Suite struct HousekeepingTests {
    @Test func purgeKeepsUsedTokensUntilTheyExpire() async throws {
        try await Harness.run { h in
            let expiry = h.now + 120
            #expect(try await h.store.recordUsedToken(digest: "digest", expiresAt: expiry))
            try await h.store.createChallenge("challenge", subject: "device", purpose: "login", expiresAt: h.now + 60)
            try await h.store.purgeExpired(now: h.now + 59)
            // Still remembered: a replay inside the token's life is refused.
            #expect(try await h.store.recordUsedToken(digest: "digest", expiresAt: expiry) == false)
            try await h.store.purgeExpired(now: h.now + 120)
            #expect(try await h.store.consumeChallenge("challenge", subject: "device", purpose: "login", now: h.now) == false)
            #expect(try await h.store.recordUsedToken(digest: "digest", expiresAt: h.now + 240))
        }
    }

    @Test func purgeForgetsStaleThrottleRowsOnly() async throws {
        try await Harness.run { h in
            let store = try #require(h.store as? SQLStore)
            let counter = ThrottleCounter(key: "account:ana", decaySeconds: 0) { _ in 600 }
            #expect(try await h.store.countAttempt([counter], at: h.now) == nil)
            func failures() async throws -> [Int] {
                try await store.provider.read { database in
                    try await database.raw("SELECT failures FROM password_throttle WHERE key = 'account:ana'").all()
                        .map { try $0.int("failures") }
                }
            }
            try await h.store.purgeExpired(now: h.now + 3_600)
            #expect(try await failures() == [1])
            try await h.store.purgeExpired(now: h.now + 90_000)
            #expect(try await failures() == [])
        }
    }

    @Test func purgeDropsExpiredWebAuthnCeremoniesOnly() async throws {
        try await Harness.run { h in
            let store = try #require(h.store as? SQLStore)
            for (id, lifetime) in [("short", 60.0), ("long", 600.0)] {
                try await h.store.createCeremony(
                    CeremonyRecord(
                        id: id, kind: .authentication, userId: nil, sessionId: nil, firstCredentialOnly: false, state: "{}",
                        expiresAt: h.now + lifetime))
            }
            try await h.store.purgeExpired(now: h.now + 60)
            let left = try await store.provider.read { database in
                try await database.raw("SELECT id FROM webauthn_ceremonies").all().map { try $0.string("id") }
            }
            #expect(left == ["long"])
            #expect(try await h.store.consumeCeremony(id: "long", kind: .authentication, sessionId: nil, now: h.now)?.id == "long")
        }
    }
}
