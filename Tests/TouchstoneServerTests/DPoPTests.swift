import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing
import TouchstoneCrypto
import TouchstoneProtocol

@testable import TouchstoneDomain
@testable import TouchstoneStorage

/// DPoP (RFC 9449, PROTOCOL "FAPI 2.0: DPoP"): bound tokens at the token endpoint, PAR's `dpop_jkt`, public clients'
/// bound refresh tokens, `Authorization: DPoP` at userinfo and `cnf` in introspection.
@Suite struct DPoPTests {
    static let dpop = HTTPField.Name("DPoP")!
    static let challenge = #"algs="ES256 PS256 EdDSA""#

    func redeem(_ h: Harness, _ code: String, _ site: RelyingSite, proof: String?) async throws -> TestResponse {
        let body = [
            "grant_type": "authorization_code", "code": code, "redirect_uri": site.redirectURI,
            "code_verifier": site.verifier, "client_id": site.clientId,
        ].map { "\($0.key)=\(PercentEncoding.unreserved($0.value))" }.joined(separator: "&")
        var headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
        if let proof { headers[Self.dpop] = proof }
        return try await h.send(.post, "/oauth2/token", raw: body, headers: headers)
    }

    func refresh(_ h: Harness, _ token: String, _ site: RelyingSite, proof: String?) async throws -> TestResponse {
        let body = "grant_type=refresh_token&client_id=\(site.clientId)&refresh_token=\(PercentEncoding.unreserved(token))"
        var headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
        if let proof { headers[Self.dpop] = proof }
        return try await h.send(.post, "/oauth2/token", raw: body, headers: headers)
    }

    func userInfo(_ h: Harness, scheme: String, _ token: String, proof: String?) async throws -> TestResponse {
        var headers: HTTPFields = [.authorization: "\(scheme) \(token)"]
        if let proof { headers[Self.dpop] = proof }
        return try await h.send(.get, "/oauth2/userinfo", headers: headers)
    }

    @Test func aProofBindsTheTokensAndUserinfoWantsTheKeysProofWithAth() async throws {
        try await Harness.run { h in
            let key = TestJOSEKey.p256()
            let (site, code, _) = try await h.signedInShop()
            let response = try await redeem(h, code, site, proof: try key.dpopProof("POST", "/oauth2/token", now: h.now))
            #expect(response.status == .ok, "\(String(buffer: response.body))")
            let tokens = try h.decode(OAuthTokenResponse.self, response)
            #expect(tokens.tokenType == "DPoP")
            let (_, claims) = try jwtParts(tokens.accessToken)
            #expect((claims["cnf"] as? [String: Any])?["jkt"] as? String == key.thumbprint)

            let token = tokens.accessToken
            let ok = try await userInfo(
                h, scheme: "DPoP", token, proof: try key.dpopProof("GET", "/oauth2/userinfo", now: h.now, accessToken: token))
            #expect(ok.status == .ok, "\(String(buffer: ok.body))")

            let replayed = try key.dpopProof("GET", "/oauth2/userinfo", now: h.now, accessToken: token)
            #expect(try await userInfo(h, scheme: "DPoP", token, proof: replayed).status == .ok)
            let refusals: [(String, TestResponse, String)] = [
                ("Bearer with a bound token", try await userInfo(h, scheme: "Bearer", token, proof: nil), "invalid_token"),
                ("no proof", try await userInfo(h, scheme: "DPoP", token, proof: nil), "invalid_token"),
                ("another key's proof", try await userInfo(
                    h, scheme: "DPoP", token,
                    proof: try TestJOSEKey.p256().dpopProof("GET", "/oauth2/userinfo", now: h.now, accessToken: token)),
                    "invalid_token"),
                ("a replayed jti", try await userInfo(h, scheme: "DPoP", token, proof: replayed), "invalid_dpop_proof"),
                ("no ath", try await userInfo(
                    h, scheme: "DPoP", token, proof: try key.dpopProof("GET", "/oauth2/userinfo", now: h.now)),
                    "invalid_dpop_proof"),
                ("a wrong ath", try await userInfo(
                    h, scheme: "DPoP", token,
                    proof: try key.dpopProof("GET", "/oauth2/userinfo", now: h.now, accessToken: token + "x")),
                    "invalid_dpop_proof"),
                ("a wrong htu", try await userInfo(
                    h, scheme: "DPoP", token,
                    proof: try key.dpopProof("GET", "/oauth2/token", now: h.now, accessToken: token)),
                    "invalid_dpop_proof"),
                ("a wrong htm", try await userInfo(
                    h, scheme: "DPoP", token,
                    proof: try key.dpopProof("POST", "/oauth2/userinfo", now: h.now, accessToken: token)),
                    "invalid_dpop_proof"),
                ("a stale proof", try await userInfo(
                    h, scheme: "DPoP", token,
                    proof: try key.dpopProof("GET", "/oauth2/userinfo", now: h.now.addingTimeInterval(-61), accessToken: token)),
                    "invalid_dpop_proof"),
            ]
            for (name, response, error) in refusals {
                #expect(response.status == .unauthorized, "\(name)")
                #expect(
                    response.headers[.wwwAuthenticate] == #"DPoP error="\#(error)", \#(Self.challenge)"#,
                    "\(name): \(response.headers[.wwwAuthenticate] ?? "none")")
            }
            // A bad token sent as Bearer keeps its Bearer challenge.
            #expect(try await h.userInfo("garbage").headers[.wwwAuthenticate] == #"Bearer error="invalid_token""#)

            // Introspection reports the binding.
            let apiKey = try await h.newAPIKey(for: site.clientId)
            let introspection = try await h.send(
                .post, "/v1/introspect", json: IntrospectionRequest(token: token),
                headers: [.authorization: "ApiKey \(apiKey)"])
            #expect(try h.decode(IntrospectionResult.self, introspection).cnf?.jkt == key.thumbprint)
        }
    }

    /// Every hostile proof at the token endpoint: 400 `invalid_dpop_proof`, and the code is still there to redeem.
    @Test func hostileProofsAreRefusedAndSpendNoCode() async throws {
        try await Harness.run { h in
            let key = TestJOSEKey.p256()
            let (site, code, _) = try await h.signedInShop()
            let now = h.now
            let replayed = try key.dpopProof("POST", "/oauth2/token", now: now)
            // Spent by a refresh that fails for its grant: the proof itself verified.
            #expect(try h.oauthError(try await refresh(h, "unknown", site, proof: replayed)) == "invalid_grant")
            let hostile: [(String, String)] = [
                ("a replayed jti", replayed),
                ("alg none", try key.dpopProof("POST", "/oauth2/token", now: now, alg: "none")),
                ("HS256 keyed with the public key", try key.dpopProof("POST", "/oauth2/token", now: now, alg: "HS256")),
                ("RS256", try TestJOSEKey.rsa().dpopProof("POST", "/oauth2/token", now: now, alg: "RS256")),
                ("a private key in jwk", try key.dpopProof(
                    "POST", "/oauth2/token", now: now, header: ["typ": "dpop+jwt", "jwk": key.privateJWK])),
                ("no jwk", try key.dpopProof("POST", "/oauth2/token", now: now, header: ["typ": "dpop+jwt"])),
                ("another key's jwk", try key.dpopProof(
                    "POST", "/oauth2/token", now: now, header: ["typ": "dpop+jwt", "jwk": TestJOSEKey.p256().publicJWK])),
                ("typ JWT", try key.dpopProof("POST", "/oauth2/token", now: now, header: ["typ": "JWT", "jwk": key.publicJWK])),
                ("a wrong htm", try key.dpopProof("GET", "/oauth2/token", now: now)),
                ("a wrong htu", try key.dpopProof("POST", "/oauth2/par", now: now)),
                ("another server's htu", try key.dpopProof("POST", "/oauth2/token", now: now, changes: ["htu": "https://evil.example/oauth2/token"])),
                ("a stale iat", try key.dpopProof("POST", "/oauth2/token", now: now.addingTimeInterval(-61))),
                ("iat too far ahead", try key.dpopProof("POST", "/oauth2/token", now: now.addingTimeInterval(11))),
                ("no jti", try key.dpopProof("POST", "/oauth2/token", now: now, changes: ["jti": nil])),
                ("not a JWS", "garbage"),
            ]
            for (name, proof) in hostile {
                let response = try await redeem(h, code, site, proof: proof)
                #expect(response.status == .badRequest, "\(name)")
                #expect(try h.oauthError(response) == "invalid_dpop_proof", "\(name)")
            }
            let good = try await redeem(h, code, site, proof: try key.dpopProof("POST", "/oauth2/token", now: now))
            #expect(good.status == .ok, "\(String(buffer: good.body))")
        }
    }

    @Test(arguments: ["EdDSA", "PS256"])
    func proofsOfEd25519AndRSAPSSKeysBindToo(alg: String) async throws {
        try await Harness.run { h in
            let key: TestJOSEKey = alg == "EdDSA" ? .ed25519() : try .rsa()
            let (site, code, _) = try await h.signedInShop()
            let response = try await redeem(h, code, site, proof: try key.dpopProof("POST", "/oauth2/token", now: h.now))
            #expect(response.status == .ok, "\(String(buffer: response.body))")
            let (_, claims) = try jwtParts(try h.decode(OAuthTokenResponse.self, response).accessToken)
            #expect((claims["cnf"] as? [String: Any])?["jkt"] as? String == key.thumbprint)
        }
    }

    @Test func aPublicClientsRefreshTokenIsRefreshedOnlyWithItsKey() async throws {
        try await Harness.run { h in
            let key = TestJOSEKey.p256()
            let (site, code, _) = try await h.signedInShop()
            let tokens = try h.decode(
                OAuthTokenResponse.self,
                try await redeem(h, code, site, proof: try key.dpopProof("POST", "/oauth2/token", now: h.now)))
            let refreshToken = try #require(tokens.refreshToken)
            for (name, proof) in [
                ("no proof", nil), ("another key", try TestJOSEKey.p256().dpopProof("POST", "/oauth2/token", now: h.now)),
            ] {
                let response = try await refresh(h, refreshToken, site, proof: proof)
                #expect(response.status == .badRequest, "\(name)")
                #expect(try h.oauthError(response) == "invalid_grant", "\(name)")
            }
            // Nothing was rotated or revoked: the key's own proof refreshes.
            let refreshed = try await refresh(h, refreshToken, site, proof: try key.dpopProof("POST", "/oauth2/token", now: h.now))
            #expect(refreshed.status == .ok, "\(String(buffer: refreshed.body))")
            #expect(try h.decode(OAuthTokenResponse.self, refreshed).tokenType == "DPoP")
        }
    }

    @Test func parBindsTheCodeToDpopJktOrTheProofsKey() async throws {
        try await Harness.run { h in
            let key = TestJOSEKey.p256()
            try await h.createAccount()
            var site = RelyingSite()
            try await h.register(&site)
            let parameters = [
                "response_type": "code", "client_id": site.clientId, "redirect_uri": site.redirectURI, "scope": "openid",
                "code_challenge": site.challenge, "code_challenge_method": "S256",
            ]
            func push(_ extra: [String: String], proof: String?) async throws -> TestResponse {
                let body = parameters.merging(extra) { $1 }.map { "\($0.key)=\(PercentEncoding.unreserved($0.value))" }
                    .joined(separator: "&")
                var headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
                if let proof { headers[Self.dpop] = proof }
                return try await h.send(.post, "/oauth2/par", raw: body, headers: headers)
            }
            let store = try #require(h.store as? SQLStore)
            let kept = { try await store.provider.read { try await $0.raw("SELECT id FROM authorization_requests").all().count } }

            // Both, naming different keys: refused, nothing stored.
            let conflicting = try await push(
                ["dpop_jkt": TestJOSEKey.p256().thumbprint], proof: try key.dpopProof("POST", "/oauth2/par", now: h.now))
            #expect(conflicting.status == .badRequest)
            #expect(try h.oauthError(conflicting) == "invalid_dpop_proof")
            #expect(try await kept() == 0)

            for extra in [["dpop_jkt": key.thumbprint], [:]] {
                let proof = extra.isEmpty ? try key.dpopProof("POST", "/oauth2/par", now: h.now) : nil
                let pushed = try h.decode(PushedAuthorizationResponse.self, try await push(extra, proof: proof))
                let (redirect, _) = try await h.signIn(
                    "client_id=\(site.clientId)&request_uri=\(PercentEncoding.unreserved(pushed.requestUri))")
                let code = try #require(redirect.parameters["code"])
                for (name, proof) in [
                    ("no proof", nil), ("another key", try TestJOSEKey.p256().dpopProof("POST", "/oauth2/token", now: h.now)),
                ] {
                    let response = try await redeem(h, code, site, proof: proof)
                    #expect(try h.oauthError(response) == "invalid_grant", "\(name)")
                }
                let good = try await redeem(h, code, site, proof: try key.dpopProof("POST", "/oauth2/token", now: h.now))
                #expect(good.status == .ok, "\(String(buffer: good.body))")
            }
        }
    }
}
