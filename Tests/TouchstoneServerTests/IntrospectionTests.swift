import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
import TouchstoneCrypto
import TouchstoneProtocol
import TouchstoneTestSupport

@testable import TouchstoneDomain
@testable import TouchstoneHTTP
@testable import TouchstoneServer
@testable import TouchstoneStorage

@Suite struct IntrospectionTests {
    func apiKey(_ h: Harness, for clientId: String) async throws -> String {
        let key = "tsk_" + SecretDigest.randomToken()
        try await h.store.createAPIKey(
            APIKeyRecord(id: UUID().uuidString, clientId: clientId, createdAt: h.now, revokedAt: nil),
            hash: SecretDigest.sha256(key))
        return key
    }

    func introspect(_ h: Harness, _ token: String, key: String?) async throws -> TestResponse {
        try await h.send(
            .post, "/v1/introspect", json: IntrospectionRequest(token: token),
            headers: key.map { [.authorization: "ApiKey \($0)"] } ?? [:])
    }

    @Test func activeTokensOfTheKeysPublisher() async throws {
        try await Harness.run { h in
            try await h.saveApp(AppPolicy(clientId: "com.example.payments", publisher: "demo"))
            let enrolled = try await h.enroll(try await TestDevice())
            let key = try await apiKey(h, for: "com.example.payments")
            let response = try await introspect(h, enrolled.session.accessToken, key: key)
            #expect(response.status == .ok)
            #expect(response.headers[.cacheControl] == "no-store")
            let result = try h.decode(IntrospectionResult.self, response)
            #expect(result.active)
            #expect(result.sub == enrolled.session.userId)
            #expect(result.aud == "com.example.demo")
            #expect(result.did == enrolled.deviceId)
            #expect(result.amr == ["bio"])
            #expect(result.acr == "aal2")
            #expect(result.scope == "session")
            #expect(result.exp == Int(h.now.timeIntervalSince1970) + 600)
        }
    }

    @Test func otherPublishersAndEndedSessionsAreInactive() async throws {
        try await Harness.run { h in
            try await h.saveApp(AppPolicy(clientId: "com.other.bank", publisher: "other"))
            let enrolled = try await h.enroll(try await TestDevice())
            let foreign = try await introspect(h, enrolled.session.accessToken, key: try await apiKey(h, for: "com.other.bank"))
            #expect(String(buffer: foreign.body) == #"{"active":false}"#)
            let own = try await apiKey(h, for: "com.example.demo")
            #expect(try h.decode(IntrospectionResult.self, try await introspect(h, "garbage", key: own)) == .inactive)
            _ = try await h.send(.delete, "/v1/sessions/current", headers: h.bearer(enrolled.session))
            #expect(try h.decode(IntrospectionResult.self, try await introspect(h, enrolled.session.accessToken, key: own)) == .inactive)
        }
    }

    @Test func introspectionNeedsAValidKey() async throws {
        try await Harness.run { h in
            let enrolled = try await h.enroll(try await TestDevice())
            try h.expectProblem(try await introspect(h, enrolled.session.accessToken, key: nil), 401, .unauthorized)
            try h.expectProblem(try await introspect(h, enrolled.session.accessToken, key: "tsk_wrong"), 401, .unauthorized)
            let key = try await apiKey(h, for: "com.example.demo")
            let id = try #require(try await h.store.apiKeys().first?.id)
            #expect(try await h.store.revokeAPIKey(id: id, at: h.now))
            try h.expectProblem(try await introspect(h, enrolled.session.accessToken, key: key), 401, .unauthorized)
        }
    }
}
