import Crypto
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
import TouchstoneProtocol
import TouchstoneTestSupport
import _CryptoExtras

@testable import TouchstoneDomain
@testable import TouchstoneHTTP
@testable import TouchstoneServer
@testable import TouchstoneStorage

/// The auth0/TouchIDAuth endpoints (`/pubkey`, `/login`), behind `--touchidauth-compat`.
@Suite struct LegacyTests {
    /// A TouchIDAuth client's RSA key and the tokens it signs.
    struct LegacyKey: Sendable {
        let key: _RSA.Signing.PrivateKey

        init(bits: Int = 2048) throws {
            key = bits >= 2048
                ? try _RSA.Signing.PrivateKey(keySize: .init(bitCount: bits))
                : try _RSA.Signing.PrivateKey(unsafeKeySize: .init(bitCount: bits))
        }

        /// The PKCS#1 `RSA PUBLIC KEY` PEM, with LF line endings.
        var pem: String { key.publicKey.pkcs1PEMRepresentation }

        /// MD5 of the PKCS#1 DER as uppercase hex pairs joined by `:`.
        var sub: String {
            Insecure.MD5.hash(data: key.publicKey.pkcs1DERRepresentation).map { String(format: "%02X", $0) }
                .joined(separator: ":")
        }

        /// A compact JWS over `header` and `payload` (JSON texts), signed RS256 with this key.
        func sign(header: String = #"{"alg":"RS256","typ":"JWT"}"#, payload: String) throws -> String {
            let input = Base64URL.encode(Data(header.utf8)) + "." + Base64URL.encode(Data(payload.utf8))
            let signature = try key.signature(for: Data(input.utf8), padding: .insecurePKCS1v1_5)
            return input + "." + Base64URL.encode(signature.rawRepresentation)
        }

        /// A token as TouchIDAuth sends it: `sub`, `iat`, `exp`.
        func jwt(sub: String? = nil, at now: Date, lifetime: Int64 = 60) throws -> String {
            let iat = TestDevice.seconds(now)
            return try sign(payload: #"{"sub":"\#(sub ?? self.sub)","iat":\#(iat),"exp":\#(iat + lifetime)}"#)
        }
    }

    struct Registration: Encodable {
        let user: String
        let key: String
        let password: String
    }

    struct Registered: Decodable {
        struct User: Decodable {
            let id: String
        }

        let user: User
    }

    static func compat(_ settings: inout ServerSettings) {
        settings.touchIDAuthCompat = true
    }

    func register(_ h: Harness, _ pem: String, user: String = "ana", password: String = Harness.password) async throws
        -> TestResponse
    {
        try await h.send(
            .post, "/pubkey",
            json: Registration(user: user, key: Data(pem.utf8).base64EncodedString(), password: password))
    }

    func login(_ h: Harness, _ jwt: String) async throws -> TestResponse {
        try await h.send(.post, "/login", json: ["jwt": jwt])
    }

    @Test func aRegisteredKeyLogsInOnceWithEachToken() async throws {
        try await Harness.run(configure: Self.compat) { h in
            let userId = try await h.createAccount()
            let key = try LegacyKey()
            let registered = try await register(h, key.pem)
            #expect(registered.status == .ok)
            #expect(try h.decode(Registered.self, registered).user.id == userId)
            #expect(Set(try h.jsonObject(registered).keys) == ["user"])

            let jwt = try key.jwt(at: h.now)
            let response = try await login(h, jwt)
            #expect(response.status == .ok)
            #expect(response.headers[.cacheControl] == "no-store")
            let session = try h.decode(Session.self, response)
            #expect(session.amr == ["legacy"])
            #expect(session.acr == "aal1")
            #expect(session.userId == userId)
            #expect(session.deviceId == nil)
            #expect(try jwtParts(session.accessToken).payload["acr"] as? String == "aal1")
            #expect(try await h.send(.get, "/v1/devices", headers: h.bearer(session)).status == .ok)
            // An aal1 session: no step-up.
            try h.expectProblem(
                try await h.send(.post, "/v1/step-up", json: PasswordRequest(password: Harness.password), headers: h.bearer(session)),
                403, .insufficientAuthentication)
            // The same token again is refused; a new one works.
            try h.expectProblem(try await login(h, jwt), 401, .invalidAssertion)
            h.clock.advance(by: 1)
            #expect(try await login(h, try key.jwt(at: h.now)).status == .ok)
        }
    }

    @Test func pemWithLFCRAndCRLFLineEndingsIsAccepted() async throws {
        try await Harness.run(configure: Self.compat) { h in
            try await h.createAccount()
            let keys = [try LegacyKey(), try LegacyKey(), try LegacyKey()]
            let pems = [
                keys[0].pem.replacingOccurrences(of: "\r\n", with: "\n"),
                keys[1].pem.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n", with: "\r"),
                keys[2].pem.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n", with: "\r\n"),
            ]
            #expect(pems[0].hasPrefix("-----BEGIN RSA PUBLIC KEY-----\n"))
            #expect(pems[1].hasPrefix("-----BEGIN RSA PUBLIC KEY-----\r") && !pems[1].contains("\n"))
            for (key, pem) in zip(keys, pems) {
                #expect(try await register(h, pem).status == .ok)
                #expect(try await login(h, try key.jwt(at: h.now)).status == .ok)
            }
        }
    }

    @Test func registrationNeedsThePasswordAndAFreshKey() async throws {
        try await Harness.run(configure: Self.compat) { h in
            try await h.createAccount()
            try await h.createAccount("bob")
            let key = try LegacyKey()
            try h.expectProblem(try await register(h, key.pem, password: "not the password"), 401, .invalidCredentials)
            try h.expectProblem(try await register(h, key.pem, user: "nobody"), 401, .invalidCredentials)
            try h.expectProblem(try await login(h, try key.jwt(at: h.now)), 401, .invalidAssertion)
            #expect(try await register(h, key.pem).status == .ok)
            try h.expectProblem(try await register(h, key.pem), 409, .keyExists)
            try h.expectProblem(try await register(h, key.pem, user: "bob"), 409, .keyExists)
            // The key still belongs to Ana.
            let session = try h.decode(Session.self, try await login(h, try key.jwt(at: h.now)))
            #expect(session.userId == (try await h.store.user(username: "ana"))?.id)
        }
    }

    @Test func keysMustBePKCS1RSAOfAtLeast2048Bits() async throws {
        try await Harness.run(configure: Self.compat) { h in
            try await h.createAccount()
            let small = try LegacyKey(bits: 1024)
            try h.expectProblem(try await register(h, small.pem), 400, .invalidKey)
            try h.expectProblem(try await login(h, try small.jwt(at: h.now)), 401, .invalidAssertion)
            try h.expectProblem(
                try await h.send(.post, "/pubkey", json: Registration(user: "ana", key: "not base64!", password: Harness.password)),
                400, .invalidKey)
            try h.expectProblem(
                try await register(h, "-----BEGIN RSA PUBLIC KEY-----\nAAAA\n-----END RSA PUBLIC KEY-----\n"), 400, .invalidKey)
            try h.expectProblem(try await register(h, "hello"), 400, .invalidKey)
            try h.expectProblem(try await h.send(.post, "/pubkey", json: ["user": "ana"]), 400, .invalidRequest)
        }
    }

    @Test func rsa1024IsAcceptedOnlyWhenAllowed() async throws {
        try await Harness.run(configure: { $0.touchIDAuthCompat = true; $0.insecureAllowRSA1024 = true }) { h in
            try await h.createAccount()
            let small = try LegacyKey(bits: 1024)
            #expect(try await register(h, small.pem).status == .ok)
            let session = try h.decode(Session.self, try await login(h, try small.jwt(at: h.now)))
            #expect(session.amr == ["legacy"])
        }
    }

    @Test func tokensThatDoNotVerifyAreRefused() async throws {
        try await Harness.run(configure: Self.compat) { h in
            try await h.createAccount()
            let key = try LegacyKey()
            #expect(try await register(h, key.pem).status == .ok)
            let stranger = try LegacyKey()
            let iat = TestDevice.seconds(h.now)
            var refused: [(String, String)] = [
                ("no exp", try key.sign(payload: #"{"sub":"\#(key.sub)","iat":\#(iat)}"#)),
                ("no iat", try key.sign(payload: #"{"sub":"\#(key.sub)","exp":\#(iat + 60)}"#)),
                ("no sub", try key.sign(payload: #"{"iat":\#(iat),"exp":\#(iat + 60)}"#)),
                ("an hour", try key.jwt(at: h.now, lifetime: 3_600)),
                ("61 s", try key.jwt(at: h.now, lifetime: 61)),
                ("exp before iat", try key.jwt(at: h.now, lifetime: -1)),
                ("expired", try key.jwt(at: h.now - 61)),
                ("from the future", try key.jwt(at: h.now + 31)),
                ("another key", try stranger.jwt(sub: key.sub, at: h.now)),
                ("unknown sub", try stranger.jwt(at: h.now)),
                ("lowercase sub", try key.jwt(sub: key.sub.lowercased(), at: h.now)),
                ("garbage", "garbage"),
                ("two parts", "a.b"),
            ]
            let payload = Base64URL.encode(Data(#"{"sub":"\#(key.sub)","iat":\#(iat),"exp":\#(iat + 60)}"#.utf8))
            refused.append(("alg none", Base64URL.encode(Data(#"{"alg":"none","typ":"JWT"}"#.utf8)) + "." + payload + "."))
            let hsInput = Base64URL.encode(Data(#"{"alg":"HS256","typ":"JWT"}"#.utf8)) + "." + payload
            for secret in [Data(key.pem.utf8), key.key.publicKey.pkcs1DERRepresentation] {
                let mac = HMAC<SHA256>.authenticationCode(for: Data(hsInput.utf8), using: SymmetricKey(data: secret))
                refused.append(("alg HS256", hsInput + "." + Base64URL.encode(mac)))
            }
            // A valid RS256 signature under a header that names another algorithm.
            refused.append(("alg PS256", try key.sign(header: #"{"alg":"PS256","typ":"JWT"}"#, payload: #"{"sub":"\#(key.sub)","iat":\#(iat),"exp":\#(iat + 60)}"#)))
            // The right token with its signature tampered.
            var tampered = try key.jwt(at: h.now).split(separator: ".").map(String.init)
            tampered[2] = String(tampered[2].reversed())
            refused.append(("tampered", tampered.joined(separator: ".")))
            for (reason, jwt) in refused {
                let response = try await login(h, jwt)
                #expect(response.status == .unauthorized, "\(reason)")
                #expect(try h.problem(response).code == .invalidAssertion, "\(reason)")
            }
            try h.expectProblem(try await h.send(.post, "/login", json: ["token": "x"]), 400, .invalidRequest)
            // Within the limits: 60 s, iat up to 30 s ahead.
            #expect(try await login(h, try key.jwt(at: h.now + 30, lifetime: 60)).status == .ok)
        }
    }

    @Test func theRoutesExistOnlyInCompatibilityMode() async throws {
        try await Harness.run { h in
            try await h.createAccount()
            let key = try LegacyKey()
            #expect(try await register(h, key.pem).status == .notFound)
            #expect(try await login(h, try key.jwt(at: h.now)).status == .notFound)
        }
    }
}
