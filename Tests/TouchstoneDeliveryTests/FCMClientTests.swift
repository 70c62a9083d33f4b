import Foundation
import JWTKit
import Testing
import TouchstoneProtocol
import TouchstoneStorage
import TouchstoneTestSupport

@testable import TouchstoneDelivery

/// The FCM HTTP v1 client against the stand-in: the OAuth assertion, the access token's life, the data message and
/// every answer.
@Suite struct FCMClientTests {
    /// The claims of the JWT-bearer assertion, checked after jwt-kit has verified it with the account's public key.
    struct AssertionClaims: JWTPayload {
        let iss: String
        let scope: String
        let aud: String
        let iat: Int
        let exp: Int

        func verify(using _: some JWTAlgorithm) async throws {
            guard exp == iat + 3600 else { throw APNsClientTests.ClaimMismatch(claim: "exp") }
        }
    }

    /// A token request's form checked, and its assertion verified.
    static func verifiedAssertion(_ request: PushTestServer.RecordedRequest, tokenURI: String) async throws -> AssertionClaims {
        #expect(request.headers["content-type"] == "application/x-www-form-urlencoded")
        let form = request.form()
        #expect(form.keys.sorted() == ["assertion", "grant_type"])
        #expect(form["grant_type"] == "urn:ietf:params:oauth:grant-type:jwt-bearer")
        let assertion = try #require(form["assertion"])
        let keys = JWTKeyCollection()
        await keys.add(
            rsa: try Insecure.RSA.PublicKey(backing: try PushFixture.rsaKey.get().publicKey), digestAlgorithm: .sha256,
            kid: JWKIdentifier(string: "f0e1d2c3b4a5"))
        let claims = try await keys.verify(assertion, as: AssertionClaims.self)
        #expect(try PushFixture.header(assertion) == ["alg": "RS256", "typ": "JWT", "kid": "f0e1d2c3b4a5"])
        #expect(try PushFixture.claims(assertion).keys.sorted() == ["aud", "exp", "iat", "iss", "scope"])
        #expect(claims.iss == "push@touchstone-test.iam.gserviceaccount.com")
        #expect(claims.scope == "https://www.googleapis.com/auth/firebase.messaging")
        #expect(claims.aud == tokenURI)
        return claims
    }

    @Test func aDataMessageGoesWithAnAccessTokenFromAVerifiedAssertionAndNoNotification() async throws {
        try await withPushTestServer { server in
            let account = try PushFixture.serviceAccount(tokenURI: server.tokenURI())
            let answer = try await PushFixture.withClients(server, clock: TestClock()) { clients in
                await clients.send(
                    PushFixture.push(provider: .fcm, token: "fcm:token-1", kind: .webLogin), credentials: PushCredentials(fcm: account))
            }
            #expect(answer == .delivered)
            let recorded = try server.recorded()
            try #require(recorded.map(\.path) == ["/token", "/v1/projects/touchstone-test/messages:send"])
            let claims = try await Self.verifiedAssertion(recorded[0], tokenURI: server.tokenURI())
            #expect(claims.iat == 1_800_000_000)
            let send = recorded[1]
            #expect(send.method == "POST" && send.alpn == "h2" && recorded[0].alpn == "h2")
            #expect(send.headers["authorization"] == "Bearer ya29.test-1")
            #expect(send.headers["content-type"] == "application/json")
            let body = try send.json()
            #expect(body.keys.sorted() == ["message"])
            let message = try #require(body["message"] as? [String: Any])
            #expect(message.keys.sorted() == ["android", "data", "token"])
            #expect(message["token"] as? String == "fcm:token-1")
            #expect(message["data"] as? [String: String] == [
                "touchstone_v": "1", "kind": "web-login", "id": "itm_web-login", "deviceId": "dev_1",
            ])
            #expect(message["android"] as? [String: String] == [
                "priority": "HIGH", "ttl": "300s", "collapse_key": "itm_web-login",
            ])
        }
    }

    @Test func aNoticeGoesAtNormalPriorityWithItsEventToBeKeptADay() async throws {
        try await withPushTestServer { server in
            let clock = TestClock()
            let account = try PushFixture.serviceAccount(tokenURI: server.tokenURI())
            try await PushFixture.withClients(server, clock: clock) { clients in
                clock.advance(by: 100)
                let answer = await clients.send(
                    PushFixture.push(provider: .fcm, token: "fcm:token-2", kind: .notice, event: .deviceAdded),
                    credentials: PushCredentials(fcm: account))
                #expect(answer == .delivered)
            }
            let message = try #require(try server.recorded().last?.json()["message"] as? [String: Any])
            #expect(message["data"] as? [String: String] == [
                "touchstone_v": "1", "kind": "notice", "id": "itm_notice", "deviceId": "dev_1", "event": "device_added",
            ])
            #expect(message["android"] as? [String: String] == [
                "priority": "NORMAL", "ttl": "86400s", "collapse_key": "itm_notice",
            ])
        }
    }

    @Test func anAccessTokenIsKeptUntilFiveMinutesBeforeItExpiresAndSharedByConcurrentSends() async throws {
        try await withPushTestServer { server in
            let clock = TestClock()
            let account = try PushFixture.serviceAccount(tokenURI: server.tokenURI())
            let credentials = PushCredentials(fcm: account)
            try await PushFixture.withClients(server, clock: clock) { clients in
                let answers = await withTaskGroup(of: PushAnswer.self) { group in
                    for index in 0..<5 {
                        group.addTask {
                            await clients.send(PushFixture.push(provider: .fcm, token: "fcm:\(index)"), credentials: credentials)
                        }
                    }
                    return await group.reduce(into: []) { $0.append($1) }
                }
                #expect(answers == Array(repeating: .delivered, count: 5))
                clock.advance(by: 55 * 60 - 1)
                #expect(await clients.send(PushFixture.push(provider: .fcm, token: "fcm:5"), credentials: credentials) == .delivered)
                clock.advance(by: 1)
                #expect(await clients.send(PushFixture.push(provider: .fcm, token: "fcm:6"), credentials: credentials) == .delivered)
            }
            let recorded = try server.recorded()
            #expect(recorded.filter { $0.path == "/token" }.count == 2)
            let sends = recorded.filter { $0.path != "/token" }
            #expect(sends.map { $0.headers["authorization"] } == Array(repeating: "Bearer ya29.test-1", count: 6) + ["Bearer ya29.test-2"])
            let renewal = try #require(recorded.last { $0.path == "/token" })
            #expect(try await Self.verifiedAssertion(renewal, tokenURI: server.tokenURI()).iat == 1_800_000_000 + 55 * 60)
        }
    }

    @Test func after401TheAccessTokenIsRenewedOnceAndTheMessageSentAgain() async throws {
        try await withPushTestServer(behaviours: ["fcm:once": .unauthenticatedOnce, "fcm:always": .unauthenticated]) { server in
            let account = try PushFixture.serviceAccount(tokenURI: server.tokenURI())
            let credentials = PushCredentials(fcm: account)
            try await PushFixture.withClients(server, clock: TestClock()) { clients in
                #expect(await clients.send(PushFixture.push(provider: .fcm, token: "fcm:once"), credentials: credentials) == .delivered)
                var recorded = try server.recorded()
                try #require(recorded.map(\.path) == ["/token", "/v1/projects/touchstone-test/messages:send", "/token", "/v1/projects/touchstone-test/messages:send"])
                #expect(recorded[1].headers["authorization"] == "Bearer ya29.test-1")
                #expect(recorded[3].headers["authorization"] == "Bearer ya29.test-2")

                #expect(await clients.send(PushFixture.push(provider: .fcm, token: "fcm:always"), credentials: credentials)
                    == .failed(reason: "UNAUTHENTICATED"))
                recorded = try server.recorded()
                try #require(recorded.count == 7)
                #expect(recorded[4...].map { $0.headers["authorization"] } == ["Bearer ya29.test-2", nil, "Bearer ya29.test-3"])
            }
        }
    }

    @Test func everyAnswerBecomesWhatTheOutboxDoes() async throws {
        let cases: [(PushTestServer.Behaviour, PushAnswer)] = [
            (.unregistered, .unregistered(reason: "UNREGISTERED")),
            (.senderIdMismatch, .unregistered(reason: "SENDER_ID_MISMATCH")),
            (.permissionDenied, .failed(reason: "PERMISSION_DENIED")),
            (.badDeviceToken, .failed(reason: "INVALID_ARGUMENT")),
            (.busy, .retry(reason: "RESOURCE_EXHAUSTED", retryAfter: .seconds(1))),
            (.down, .retry(reason: "UNAVAILABLE", retryAfter: nil)),
            (.redirect, .failed(reason: "HTTP 302")),
        ]
        let behaviours = Dictionary(uniqueKeysWithValues: cases.map { ("fcm:" + $0.0.rawValue, $0.0) })
        try await withPushTestServer(behaviours: behaviours) { server in
            let account = try PushFixture.serviceAccount(tokenURI: server.tokenURI())
            try await PushFixture.withClients(server, clock: TestClock(), answerTimeout: .seconds(10)) { clients in
                for (behaviour, expected) in cases {
                    let answer = await clients.send(
                        PushFixture.push(provider: .fcm, token: "fcm:" + behaviour.rawValue), credentials: PushCredentials(fcm: account))
                    #expect(answer == expected, "\(behaviour)")
                }
            }
            #expect(try server.recorded().count == cases.count + 1)
        }
    }

    @Test func noAnswerWithinTheTimeoutIsRetried() async throws {
        try await withPushTestServer(behaviours: ["fcm:slow": .slow]) { server in
            let account = try PushFixture.serviceAccount(tokenURI: server.tokenURI())
            try await PushFixture.withClients(server, clock: TestClock(), answerTimeout: .seconds(2)) { clients in
                // The connection and the access token first (tried again on a loaded machine), so that only the answer
                // is timed.
                var connected = false
                for _ in 0..<5 where !connected {
                    connected = await clients.send(PushFixture.push(provider: .fcm, token: "fcm:ok"), credentials: PushCredentials(fcm: account)) == .delivered
                }
                try #require(connected)
                let answer = await clients.send(PushFixture.push(provider: .fcm, token: "fcm:slow"), credentials: PushCredentials(fcm: account))
                #expect(answer == .retry(reason: "timeout", retryAfter: nil))
            }
        }
    }

    @Test func aTokenEndpointThatRefusesFailsOrIsDownIsRetriedAndNothingIsSent() async throws {
        try await withPushTestServer { server in
            try await PushFixture.withClients(server, clock: TestClock()) { clients in
                let push = PushFixture.push(provider: .fcm, token: "fcm:token")
                let cases: [(String, PushAnswer)] = [
                    (server.tokenURI("refused"), .failed(reason: "token_uri: invalid_grant")),
                    (server.tokenURI("down"), .retry(reason: "token_uri: HTTP 503", retryAfter: nil)),
                    (server.tokenURI("garbage"), .failed(reason: "token_uri: unreadable answer")),
                ]
                for (tokenURI, expected) in cases {
                    let answer = await clients.send(push, credentials: PushCredentials(fcm: try PushFixture.serviceAccount(tokenURI: tokenURI)))
                    #expect(answer == expected, "\(tokenURI)")
                }
                let plain = try PushFixture.serviceAccount(tokenURI: "http://127.0.0.1:9/token")
                #expect(await clients.send(push, credentials: PushCredentials(fcm: plain))
                    == .failed(reason: "the service account's token_uri is not an https URL"))
                var broken = try PushFixture.serviceAccount(tokenURI: server.tokenURI())
                broken.privateKeyPEM = PushFixture.apns.keyPEM
                #expect(await clients.send(push, credentials: PushCredentials(fcm: broken))
                    == .failed(reason: "the service account's private_key is not an RSA private key"))
                #expect(await clients.send(push, credentials: PushCredentials(apns: PushFixture.apns))
                    == .failed(reason: "the app has no FCM service account"))
            }
            #expect(try server.recorded().map(\.path) == ["/token/refused", "/token/down", "/token/garbage"])
        }
    }
}
