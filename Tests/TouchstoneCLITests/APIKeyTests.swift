import Foundation
import Testing
import TouchstoneProtocol
import TouchstoneTestSupport

/// `touchstone admin api-key create|list|revoke` and `POST /v1/introspect`.
@Suite struct APIKeyTests {
    private struct APIKeyEntry: Decodable {
        var id: String
        var clientId: String
        var createdAt: Date
        var revokedAt: Date?
    }

    @Test func introspectionIsScopedToTheKeysPublisherAndEndsWithRevocation() async throws {
        try await withServer { server, client in
            let ana = try await EnrolledDevice.enrol(on: server, client: client)
            let session = try await ana.session()
            let token = try AccessToken(session.accessToken).claims

            let demoKey = try await createKey(server, for: "com.example.demo")
            let introspect = { (key: String, accessToken: String) in
                try await client.post(
                    "/v1/introspect", IntrospectionRequest(token: accessToken), headers: ["Authorization": "ApiKey \(key)"])
            }

            let active = try await introspect(demoKey, session.accessToken)
            try #require(active.status == 200, "\(active)")
            #expect(
                try active.decode(IntrospectionResult.self)
                    == IntrospectionResult(
                        active: true, sub: ana.userId, aud: "com.example.demo", did: ana.deviceId, amr: ["bio"],
                        acr: "aal2", scope: "session", exp: Int(token.exp),
                        cnf: token.cnf.map { IntrospectionResult.Confirmation(jkt: $0.jkt) }))

            // A key of another publisher's app learns nothing.
            let created = try await server.admin(["app", "create", "com.example.pay", "--publisher", "acme"])
            try #require(created.status == 0, "\(created)")
            let acmeKey = try await createKey(server, for: "com.example.pay")
            let foreign = try await introspect(acmeKey, session.accessToken)
            try #require(foreign.status == 200, "\(foreign)")
            #expect(try foreign.object().keys.sorted() == ["active"], "\(foreign)")
            #expect(try foreign.object()["active"] as? Bool == false, "\(foreign)")

            // Without a key, or with a made-up one: 401.
            expectProblem(
                try await client.post("/v1/introspect", IntrospectionRequest(token: session.accessToken)), status: 401,
                code: "unauthorized")
            expectProblem(try await introspect("tsk_made-up", session.accessToken), status: 401, code: "unauthorized")

            // The list shows ids, never the keys.
            let listed = try await server.admin(["api-key", "list", "--json"])
            #expect(listed.status == 0, "\(listed)")
            #expect(!listed.stdout.contains(demoKey) && !listed.stdout.contains(acmeKey))
            let keys = try #require(try listed.json([String: [APIKeyEntry]].self)["apiKeys"])
            #expect(keys.map(\.clientId).sorted() == ["com.example.demo", "com.example.pay"])
            #expect(keys.allSatisfy { $0.revokedAt == nil })
            let demoEntry = try #require(keys.first { $0.clientId == "com.example.demo" })

            let revoked = try await server.admin(["api-key", "revoke", demoEntry.id])
            #expect(revoked.status == 0, "\(revoked)")
            expectProblem(try await introspect(demoKey, session.accessToken), status: 401, code: "unauthorized")
            let acmeStillWorks = try await introspect(acmeKey, session.accessToken)
            #expect(acmeStillWorks.status == 200, "another key is untouched: \(acmeStillWorks)")

            let relisted = try #require(
                try await server.admin(["api-key", "list", "--json"]).json([String: [APIKeyEntry]].self)["apiKeys"])
            #expect(relisted.first { $0.id == demoEntry.id }?.revokedAt != nil)
            let again = try await server.admin(["api-key", "revoke", demoEntry.id])
            #expect(again.status != 0, "a revoked key cannot be revoked again: \(again)")
            #expect(again.stderrLines.count == 1, "\(again)")
        }
    }

    @Test func revokedSessionIntrospectsInactive() async throws {
        try await withServer { server, client in
            let ana = try await EnrolledDevice.enrol(on: server, client: client)
            let key = try await createKey(server, for: "com.example.demo")
            let headers = ["Authorization": "ApiKey \(key)"]
            let body = IntrospectionRequest(token: ana.firstSession.accessToken)
            let before = try await client.post("/v1/introspect", body, headers: headers)
            #expect(try before.decode(IntrospectionResult.self).active, "\(before)")

            let logout = try await ana.logout(accessToken: ana.firstSession.accessToken)
            #expect(logout.status == 204, "\(logout)")
            let after = try await client.post("/v1/introspect", body, headers: headers)
            try #require(after.status == 200, "\(after)")
            #expect(try after.object().keys.sorted() == ["active"], "\(after)")
            #expect(try after.decode(IntrospectionResult.self) == .inactive)
        }
    }

    @Test func keyForAnUnknownAppIsRefused() async throws {
        try await withServer { server, _ in
            let refused = try await server.admin(["api-key", "create", "com.example.nope"])
            #expect(refused.status != 0, "\(refused)")
            #expect(refused.stdout.isEmpty, "no key is printed: \(refused)")
            #expect(refused.stderrLines.count == 1 && refused.stderr.contains("com.example.nope"), "\(refused)")
            let listed = try await server.admin(["api-key", "list", "--json"])
            #expect(try listed.json([String: [APIKeyEntry]].self)["apiKeys"]?.isEmpty == true, "\(listed)")
        }
    }

    /// `admin api-key create`: the key is the last line of standard output.
    private func createKey(_ server: ServerProcess, for clientId: String) async throws -> String {
        let created = try await server.admin(["api-key", "create", clientId])
        try #require(created.status == 0, "\(created)")
        let key = try #require(created.stdoutLines.last).trimmingCharacters(in: .whitespaces)
        #expect(!key.contains(" ") && key.count >= 32, "the last line is the key alone: \(created)")
        return key
    }
}
