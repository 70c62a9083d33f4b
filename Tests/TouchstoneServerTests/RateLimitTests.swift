import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SQLKit
import Testing
import TouchstoneProtocol

@testable import TouchstoneDomain
@testable import TouchstoneHTTP
@testable import TouchstoneStorage

/// The per-address limit on the anonymous endpoints that store something (PROTOCOL.md "Operations"), counted in the
/// database; on both stores.
@Suite struct RateLimitTests {
    /// A small limit, so that a test reaches it quickly.
    static let limit = 3

    func ceremonies(_ h: Harness) async throws -> Int {
        let store = try #require(h.store as? SQLStore)
        return try await store.provider.read { database in
            try await database.raw("SELECT id FROM webauthn_ceremonies").all().count
        }
    }

    @Test func beyondTheLimitAnAddressGets429WithRetryAfterAndNothingIsStored() async throws {
        try await Harness.run(configure: { $0.rateLimit = Self.limit }) { h in
            for _ in 0..<Self.limit {
                #expect(try await h.send(.post, "/v1/webauthn/authentication/options", json: [String: String]()).status == .ok)
            }
            let refused = try await h.send(.post, "/v1/webauthn/authentication/options", json: [String: String]())
            try h.expectProblem(refused, 429, .tooManyAttempts)
            let retryAfter = try #require(refused.headers[.retryAfter].flatMap { Int($0) })
            #expect((1...60).contains(retryAfter))
            #expect(try await ceremonies(h) == Self.limit, "the refused request stored no ceremony")

            // The same endpoint spelled with an extra slash is the same endpoint.
            try h.expectProblem(
                try await h.send(.post, "/v1/webauthn/authentication/options/", json: [String: String]()), 429,
                .tooManyAttempts)
            try h.expectProblem(
                try await h.send(.post, "//v1/webauthn/authentication/options", json: [String: String]()), 429,
                .tooManyAttempts)

            // Other endpoints count on their own; endpoints with a caller are not limited.
            #expect(try await h.send(.post, "/v1/accounts", json: CreateAccountRequest(username: "ana", password: Harness.password)).status == .created)

            // Refused requests do not count: the next window is whole again.
            h.clock.advance(by: 61)
            for _ in 0..<Self.limit {
                #expect(try await h.send(.post, "/v1/webauthn/authentication/options", json: [String: String]()).status == .ok)
            }
            try h.expectProblem(
                try await h.send(.post, "/v1/webauthn/authentication/options", json: [String: String]()), 429,
                .tooManyAttempts)
        }
    }

    @Test func everyAnonymousEndpointThatStoresIsLimited() async throws {
        try await Harness.run(configure: { $0.rateLimit = 1 }) { h in
            let requests: [(String, any Encodable)] = [
                ("/v1/accounts", CreateAccountRequest(username: "ana", password: Harness.password)),
                ("/v1/challenges", ChallengeRequest(deviceId: "00000000-0000-4000-8000-000000000000")),
                ("/v1/enrollments", PasswordLoginRequest(clientId: "com.example.demo", username: "ana", password: "wrong")),
                ("/v1/web-logins", WebLoginRequest(username: "ana")),
                ("/v1/webauthn/authentication/options", [String: String]()),
            ]
            for (path, body) in requests {
                let first = try await h.send(.post, path, json: body)
                #expect(first.status != .tooManyRequests, "\(path): the first request passes")
                try h.expectProblem(try await h.send(.post, path, json: body), 429, .tooManyAttempts)
            }
            let form: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
            _ = try await h.send(.post, "/oauth2/par", raw: "client_id=nobody", headers: form)
            let par = try await h.send(.post, "/oauth2/par", raw: "client_id=nobody", headers: form)
            #expect(par.status == .tooManyRequests && par.headers[.retryAfter] != nil)
            #expect(try h.decode(OAuthErrorResponse.self, par).error == "temporarily_unavailable")
        }
    }

    @Test func concurrentRequestsGetExactlyTheLimit() async throws {
        try await Harness.run(configure: { $0.rateLimit = 5 }) { h in
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<20 {
                    group.addTask {
                        Int(try await h.send(.post, "/v1/webauthn/authentication/options", json: [String: String]()).status.code)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 200 }.count == 5, "\(statuses)")
            #expect(statuses.filter { $0 == 429 }.count == 15, "\(statuses)")
            #expect(try await ceremonies(h) == 5)
        }
    }

    /// Regression: an IPv6 client was limited per address, so that one subscriber's /64 was millions of clients, and
    /// an IPv4 client seen as `::ffff:a.b.c.d` (a dual-stack listener) was counted apart from its IPv4 address.
    @Test func anIPv6ClientCountsByItsSlash64AndAnIPv4MappedOneAsItsIPv4Address() async throws {
        let proxies = try [CIDR("127.0.0.0/8"), CIDR("::1/128")]
        try await Harness.run(configure: {
            $0.rateLimit = 2
            $0.trustedProxies = proxies
        }) { h in
            // Over a socket, from a trusted proxy that names the client.
            try await Application(router: h.runtime.router(), logger: h.runtime.environment.logger).test(.live) { client async throws in
                func options(from address: String) async throws -> Int {
                    let response = try await client.execute(
                        uri: "/v1/webauthn/authentication/options", method: .post,
                        headers: [.xForwardedFor: address, .contentType: "application/json"], body: ByteBuffer(string: "{}"))
                    return Int(response.status.code)
                }
                #expect(try await options(from: "2001:db8:1:2::1") == 200)
                #expect(try await options(from: "2001:DB8:1:2:FFFF:FFFF:FFFF:FFFF") == 200)
                #expect(try await options(from: "2001:db8:1:2:a:b:c:d") == 429, "a third address of the /64 shares its limit")
                #expect(try await options(from: "2001:db8:1:3::1") == 200, "the next /64 counts apart")

                #expect(try await options(from: "192.0.2.1") == 200)
                #expect(try await options(from: "::ffff:192.0.2.1") == 200)
                #expect(try await options(from: "::ffff:c000:201") == 429, "the mapped address is the IPv4 address")
                #expect(try await options(from: "192.0.2.1") == 429)
                #expect(try await options(from: "192.0.2.2") == 200, "other IPv4 addresses count apart")
            }
        }
    }

    @Test func zeroTurnsTheLimitOff() async throws {
        try await Harness.run(configure: { $0.rateLimit = 0 }) { h in
            for _ in 0..<10 {
                let response = try await h.send(.post, "/v1/webauthn/authentication/options", json: [String: String]())
                #expect(response.status == .ok)
            }
        }
    }
}
