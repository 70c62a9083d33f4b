import Foundation
import Testing
import TouchstoneCrypto
import TouchstoneProtocol

@testable import TouchstoneDomain
@testable import TouchstoneStorage

/// Admin tokens (PROTOCOL "Administration API"): `tsa_` tokens shown once and stored as their SHA-256, with a name
/// unique among live tokens and a scope; on both stores.
@Suite struct AdminTokenServiceTests {
    @Test func aTokenAuthenticatesAsItsNameAndScopeUntilItIsRevoked() async throws {
        try await Harness.run { h in
            let tokens = h.admin.tokens
            let created = try await tokens.create(name: "helpdesk", scope: .read, by: .commandLine)
            #expect(created.token.hasPrefix("tsa_") && created.token.count > 40)
            #expect(created.name == "helpdesk" && created.scope == .read)

            let caller = try await tokens.authenticate(bearer: created.token, ip: "192.0.2.7")
            #expect(caller == AdminCaller(actor: .adminToken(name: "helpdesk"), ip: "192.0.2.7", scope: .read))
            #expect(caller.actor.kind.rawValue == "admin_token" && caller.actor.name == "helpdesk")

            // Only the hash is stored.
            let rows = try await Self.storedRows(h)
            #expect(rows.count == 1 && rows[0].hash == SecretDigest.sha256(created.token))
            #expect(!rows.contains { $0.text.contains(created.token) || $0.text.contains(created.token.dropFirst(4)) })

            // The list shows the name, scope and use, never the token.
            h.clock.advance(by: 60)
            _ = try await tokens.authenticate(bearer: created.token, ip: "192.0.2.7")
            let listed = try #require(try await tokens.list().first)
            #expect(listed.name == "helpdesk" && listed.scope == .read && listed.revokedAt == nil)
            #expect(listed.lastUsedAt.map { abs($0.timeIntervalSince(h.now)) < 1 } == true, "\(listed)")

            try await tokens.revoke(name: "helpdesk", by: .commandLine)
            try await expectRefusal(.unauthorized) { try await tokens.authenticate(bearer: created.token, ip: "192.0.2.7") }
            #expect(try await tokens.list().first?.revokedAt != nil)
            try await expectRefusal(.notFound) { try await tokens.revoke(name: "helpdesk", by: .commandLine) }
        }
    }

    @Test func noUnknownOrMalformedTokenAuthenticates() async throws {
        try await Harness.run { h in
            let tokens = h.admin.tokens
            let real = try await tokens.create(name: "ops", scope: .write, by: .commandLine).token
            for bearer in [nil, "", "tsa_", "tsa_made-up", String(real.dropFirst(4)), "tsk_" + real.dropFirst(4), real + "x"] {
                try await expectRefusal(.unauthorized) { try await tokens.authenticate(bearer: bearer, ip: "192.0.2.7") }
            }
        }
    }

    @Test func aLiveNameIsUniqueAndFreeAgainOnceRevoked() async throws {
        try await Harness.run { h in
            let tokens = h.admin.tokens
            let first = try await tokens.create(name: "ops", scope: .write, by: .commandLine)
            let refusal = try await expectRefusal(.invalidRequest) {
                try await tokens.create(name: "ops", scope: .read, by: .commandLine)
            }
            #expect(refusal?.detail?.contains("ops") == true, "\(String(describing: refusal))")
            #expect(try await tokens.list().count == 1)
            try await expectRefusal(.invalidRequest) { try await tokens.create(name: " ops", scope: .read, by: .commandLine) }
            try await expectRefusal(.invalidRequest) { try await tokens.create(name: "", scope: .read, by: .commandLine) }

            try await tokens.revoke(name: "ops", by: .commandLine)
            let second = try await tokens.create(name: "ops", scope: .read, by: .commandLine)
            #expect(try await tokens.authenticate(bearer: second.token, ip: "::1").scope == .read)
            try await expectRefusal(.unauthorized) { try await tokens.authenticate(bearer: first.token, ip: "::1") }
            #expect(try await tokens.list().map(\.name) == ["ops", "ops"])
        }
    }

    @Test func aReadTokenChangesNothing() async throws {
        try await Harness.run { h in
            let token = try await h.admin.tokens.create(name: "viewer", scope: .read, by: .commandLine).token
            let reader = try await h.admin.tokens.authenticate(bearer: token, ip: "192.0.2.7")
            #expect(try await h.admin.apps.list().map(\.clientId) == ["com.example.demo"])
            try await expectRefusal(.insufficientScope) { try await h.admin.apps.createAPIKey("com.example.demo", by: reader) }
            try await expectRefusal(.insufficientScope) {
                try await h.admin.apps.create(AdminAppInput(clientId: "com.example.pay", publisher: "acme"), by: reader)
            }
            try await expectRefusal(.insufficientScope) {
                try await h.admin.tokens.create(name: "escalated", scope: .write, by: reader)
            }
            #expect(try await h.store.apiKeys().isEmpty)
            #expect(try await h.store.app(clientId: "com.example.pay") == nil)
            #expect(try await h.admin.tokens.list().map(\.name) == ["viewer"])

            // The same change with a write token is done, and audited as the token's.
            let writer = try await h.admin.tokens.authenticate(
                bearer: try await h.admin.tokens.create(name: "ops", scope: .write, by: .commandLine).token, ip: "192.0.2.8")
            _ = try await h.admin.apps.createAPIKey("com.example.demo", by: writer)
            let event = try #require(
                try await h.store.auditEvents(since: nil, userId: nil).first { $0.event == .adminAPIKeyCreate })
            #expect(event.actor == .adminToken(name: "ops") && event.ip == "192.0.2.8")
        }
    }

    /// Every admin token row, as its hash and all its columns' text.
    static func storedRows(_ h: Harness) async throws -> [(hash: String, text: String)] {
        let provider = try #require(h.store as? SQLStore).provider
        return try await provider.read { database in
            try await database.raw("SELECT id, name, hash, scope FROM admin_tokens").all().map { row in
                let hash = try row.string("hash")
                return (hash, [try row.string("id"), try row.string("name"), hash, try row.string("scope")].joined(separator: " "))
            }
        }
    }
}
