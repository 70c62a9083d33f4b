import Foundation
import Testing
import TouchstoneTestSupport

/// `touchstone admin token create|list|revoke` (PROTOCOL "Administration API"): a token printed once, listed by name
/// and scope, never shown again, and audited.
@Suite struct AdminTokenTests {
    private struct TokenEntry: Decodable {
        var name: String
        var scope: String
        var createdAt: Date
        var lastUsedAt: Date?
        var revokedAt: Date?
    }

    @Test func aTokenIsPrintedOnceListedByNameAndRevoked() async throws {
        try await withServer { server, _ in
            let created = try await server.admin(["token", "create", "ops", "--scope", "write"])
            #expect(created.status == 0, "\(created)")
            let token = try #require(created.stdoutLines.last)
            #expect(token.hasPrefix("tsa_") && token.count > 40, "\(created)")
            #expect(created.stdout.contains("ops"), "\(created)")
            let reader = try await server.admin(["token", "create", "viewer", "--scope", "read", "--json"])
            #expect(reader.status == 0, "\(reader)")
            let readerToken = try #require(try reader.json([String: String].self)["token"])
            #expect(readerToken.hasPrefix("tsa_") && readerToken != token)

            let listed = try await server.admin(["token", "list", "--json"])
            #expect(listed.status == 0, "\(listed)")
            #expect(!listed.stdout.contains(token) && !listed.stdout.contains(readerToken))
            let entries = try #require(try listed.json([String: [TokenEntry]].self)["tokens"])
            #expect(entries.map(\.name) == ["ops", "viewer"] && entries.map(\.scope) == ["write", "read"])
            #expect(entries.allSatisfy { $0.revokedAt == nil && $0.lastUsedAt == nil })
            let text = try await server.admin(["token", "list"])
            #expect(text.stdoutLines.count == 2 && !text.stdout.contains(token), "\(text)")

            // A live name is taken; a scope is read or write.
            let again = try await server.admin(["token", "create", "ops", "--scope", "read"])
            #expect(again.status != 0 && again.stderrLines.count == 1 && again.stderr.contains("ops"), "\(again)")
            let badScope = try await server.admin(["token", "create", "root", "--scope", "admin"])
            #expect(badScope.status != 0, "\(badScope)")
            let noScope = try await server.admin(["token", "create", "root"])
            #expect(noScope.status != 0, "\(noScope)")

            let revoked = try await server.admin(["token", "revoke", "ops"])
            #expect(revoked.status == 0 && revoked.stdout.contains("ops"), "\(revoked)")
            let afterwards = try #require(
                try await server.admin(["token", "list", "--json"]).json([String: [TokenEntry]].self)["tokens"])
            #expect(afterwards.first { $0.name == "ops" }?.revokedAt != nil)
            let twice = try await server.admin(["token", "revoke", "ops"])
            #expect(twice.status != 0 && twice.stderrLines.count == 1, "\(twice)")

            // The audit names what was done, never the token.
            let audit = try await server.admin(["audit", "--json"])
            #expect(audit.stdout.contains("admin.token.create") && audit.stdout.contains("admin.token.revoke"), "\(audit)")
            #expect(!audit.stdout.contains(token) && !audit.stdout.contains(readerToken))
            #expect(!audit.stdout.contains(String(token.dropFirst(4))))
        }
    }
}
