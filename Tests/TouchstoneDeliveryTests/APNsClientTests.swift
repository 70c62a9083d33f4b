import Crypto
import Foundation
import JWTKit
import Testing
import TouchstoneProtocol
import TouchstoneStorage
import TouchstoneTestSupport

@testable import TouchstoneDelivery

/// The APNs client against the stand-in: the request as Apple documents it, the provider token, and every answer.
@Suite struct APNsClientTests {
    /// The claims of a provider token, checked after jwt-kit has verified the signature with the `.p8`'s public key.
    struct ProviderClaims: JWTPayload {
        let iss: String
        let iat: Int

        func verify(using _: some JWTAlgorithm) async throws {
            guard iss == PushFixture.apns.teamId else { throw ClaimMismatch(claim: "iss") }
        }
    }

    struct ClaimMismatch: Error {
        let claim: String
    }

    /// The provider token of a recorded request, verified against the key's public half.
    static func verifiedProviderToken(_ request: PushTestServer.RecordedRequest) async throws -> (jwt: String, iat: Int) {
        let authorization = try #require(request.headers["authorization"])
        #expect(authorization.hasPrefix("bearer "))
        let jwt = String(authorization.dropFirst("bearer ".count))
        let keys = JWTKeyCollection()
        await keys.add(
            ecdsa: try ES256PublicKey(backing: PushFixture.apnsKey.publicKey), kid: JWKIdentifier(string: "KEY1234567"))
        let claims = try await keys.verify(jwt, as: ProviderClaims.self)
        #expect(try PushFixture.header(jwt) == ["alg": "ES256", "kid": "KEY1234567"])
        #expect(try PushFixture.claims(jwt).keys.sorted() == ["iat", "iss"])
        return (jwt, claims.iat)
    }

    @Test func anAlertCarriesTheDocumentedHeadersASignedProviderTokenAndOnlyTheItemsReference() async throws {
        try await withPushTestServer { server in
            let clock = TestClock()
            let answer = try await PushFixture.withClients(server, clock: clock) { clients in
                await clients.send(
                    PushFixture.push(provider: .apns, token: PushFixture.apnsToken(1)), credentials: PushCredentials(apns: PushFixture.apns))
            }
            #expect(answer == .delivered)
            let request = try #require(try server.recorded().first)
            #expect(request.method == "POST" && request.alpn == "h2")
            #expect(request.path == "/3/device/" + PushFixture.apnsToken(1))
            #expect(request.headers["apns-topic"] == "com.example.pay")
            #expect(request.headers["apns-push-type"] == "alert")
            #expect(request.headers["apns-priority"] == "10")
            #expect(request.headers["apns-expiration"] == "1800000300")
            #expect(request.headers["apns-collapse-id"] == "itm_confirmation")
            let token = try await Self.verifiedProviderToken(request)
            #expect(token.iat == 1_800_000_000)
            let body = try request.json()
            #expect(body.keys.sorted() == ["aps", "touchstone"])
            let aps = try #require(body["aps"] as? [String: Any])
            #expect(aps.keys.sorted() == ["alert", "category", "mutable-content", "sound"])
            #expect(aps["alert"] as? [String: String] == [
                "title": "Confirmation requested", "body": "An app asks you to confirm something. Open to review it.",
            ])
            #expect(aps["sound"] as? String == "default")
            #expect(aps["mutable-content"] as? Int == 1)
            #expect(aps["category"] as? String == "touchstone.confirmation")
            let reference = try #require(body["touchstone"] as? [String: Any])
            #expect(reference.keys.sorted() == ["deviceId", "id", "kind", "v"])
            #expect(reference["v"] as? Int == 1)
            #expect(reference["kind"] as? String == "confirmation")
            #expect(reference["id"] as? String == "itm_confirmation")
            #expect(reference["deviceId"] as? String == "dev_1")
        }
    }

    /// A notice is kept for a day from the try, whatever its outbox row's own expiry.
    @Test func aNoticeGoesAtPriorityFiveWithItsEventAndTheEventsFixedText() async throws {
        try await withPushTestServer { server in
            let answer = try await PushFixture.withClients(server, clock: TestClock()) { clients in
                await clients.send(
                    PushFixture.push(provider: .apns, token: PushFixture.apnsToken(2), kind: .notice, event: .passwordChanged),
                    credentials: PushCredentials(apns: PushFixture.apns))
            }
            #expect(answer == .delivered)
            let request = try #require(try server.recorded().first)
            #expect(request.headers["apns-priority"] == "5")
            #expect(request.headers["apns-expiration"] == "1800086400")
            let body = try request.json()
            let aps = try #require(body["aps"] as? [String: Any])
            #expect(aps["alert"] as? [String: String] == ["title": "Security notice", "body": "Your password was changed."])
            #expect(aps["category"] as? String == "touchstone.notice")
            let reference = try #require(body["touchstone"] as? [String: Any])
            #expect(reference["event"] as? String == "password_changed")
            #expect(reference["kind"] as? String == "notice")
        }
    }

    @Test func theRegistrationsEnvironmentChoosesTheHost() async throws {
        try await withPushTestServer { server in
            let port = try #require(server.url.split(separator: ":").last)
            // The stand-in's certificate names both 127.0.0.1 and localhost: one host per environment.
            let endpoints = PushEndpoints(
                apnsProduction: "https://127.0.0.1:\(port)", apnsDevelopment: "https://localhost:\(port)",
                fcm: server.url, additionalTrustRoots: try PushEndpoints(insecureTrustRootsPEM: server.caPEM()).additionalTrustRoots)
            try await PushFixture.withClients(server, clock: TestClock(), endpoints: endpoints) { clients in
                for environment in [APNsEnvironment.development, .production] {
                    let answer = await clients.send(
                        PushFixture.push(provider: .apns, token: PushFixture.apnsToken(3), environment: environment),
                        credentials: PushCredentials(apns: PushFixture.apns))
                    #expect(answer == .delivered)
                }
            }
            #expect(try server.recorded().map(\.authority) == ["localhost:\(port)", "127.0.0.1:\(port)"])
        }
    }

    @Test func oneProviderTokenServesEveryPushUntilItIsFiftyMinutesOld() async throws {
        try await withPushTestServer { server in
            let clock = TestClock()
            try await PushFixture.withClients(server, clock: clock) { clients in
                for advance in [0, 49 * 60 + 59, 1] as [TimeInterval] {
                    clock.advance(by: advance)
                    let answer = await clients.send(
                        PushFixture.push(provider: .apns, token: PushFixture.apnsToken(4)),
                        credentials: PushCredentials(apns: PushFixture.apns))
                    #expect(answer == .delivered)
                }
            }
            var tokens: [(jwt: String, iat: Int)] = []
            for request in try server.recorded() { tokens.append(try await Self.verifiedProviderToken(request)) }
            try #require(tokens.count == 3)
            #expect(tokens[0].jwt == tokens[1].jwt)
            #expect(tokens[2].jwt != tokens[1].jwt)
            #expect(tokens[2].iat == 1_800_000_000 + 50 * 60)
        }
    }

    @Test func anExpiredProviderTokenIsRenewedAtMostEveryTwentyMinutesAndThePushRetriedOnce() async throws {
        let once = PushFixture.apnsToken(5)
        let always = PushFixture.apnsToken(6)
        try await withPushTestServer(behaviours: [once: .expiredProviderTokenOnce, always: .expiredProviderToken]) { server in
            let clock = TestClock()
            let credentials = PushCredentials(apns: PushFixture.apns)
            try await PushFixture.withClients(server, clock: clock) { clients in
                #expect(await clients.send(PushFixture.push(provider: .apns, token: PushFixture.apnsToken(7)), credentials: credentials) == .delivered)
                // Refused at 20 minutes: a new token, and the push sent again with it.
                clock.advance(by: 20 * 60)
                #expect(await clients.send(PushFixture.push(provider: .apns, token: once), credentials: credentials) == .delivered)
                var recorded = try server.recorded()
                try #require(recorded.map(\.path) == ["/3/device/" + PushFixture.apnsToken(7), "/3/device/" + once, "/3/device/" + once])
                let first = try await Self.verifiedProviderToken(recorded[1])
                let renewed = try await Self.verifiedProviderToken(recorded[2])
                #expect(first.iat == 1_800_000_000)
                #expect(renewed.iat == 1_800_000_000 + 20 * 60)

                // Refused again 19 minutes later: too soon to renew; tried again when 20 minutes have passed.
                clock.advance(by: 19 * 60)
                let tooSoon = await clients.send(PushFixture.push(provider: .apns, token: always), credentials: credentials)
                #expect(tooSoon == .retry(reason: "ExpiredProviderToken", retryAfter: .seconds(60)))
                recorded = try server.recorded()
                try #require(recorded.count == 4)
                #expect(try await Self.verifiedProviderToken(recorded[3]).jwt == renewed.jwt)

                // Renewed, refused again: given up after the one retry.
                clock.advance(by: 60)
                let refused = await clients.send(PushFixture.push(provider: .apns, token: always), credentials: credentials)
                #expect(refused == .failed(reason: "ExpiredProviderToken"))
                recorded = try server.recorded()
                try #require(recorded.count == 6)
                #expect(try await Self.verifiedProviderToken(recorded[5]).iat == 1_800_000_000 + 40 * 60)
            }
        }
    }

    @Test func everyAnswerBecomesWhatTheOutboxDoes() async throws {
        let cases: [(PushTestServer.Behaviour, PushAnswer)] = [
            (.ok, .delivered),
            (.badDeviceToken, .unregistered(reason: "BadDeviceToken")),
            (.notForTopic, .unregistered(reason: "DeviceTokenNotForTopic")),
            (.unregistered, .unregistered(reason: "Unregistered")),
            (.badTopic, .failed(reason: "BadTopic")),
            (.permissionDenied, .failed(reason: "InvalidProviderToken")),
            (.busy, .retry(reason: "TooManyRequests", retryAfter: .seconds(1))),
            (.down, .retry(reason: "ServiceUnavailable", retryAfter: nil)),
            (.redirect, .failed(reason: "HTTP 302")),
        ]
        let behaviours = Dictionary(uniqueKeysWithValues: cases.enumerated().map { (PushFixture.apnsToken(100 + $0.offset), $0.element.0) })
        try await withPushTestServer(behaviours: behaviours) { server in
            try await PushFixture.withClients(server, clock: TestClock()) { clients in
                for (index, (behaviour, expected)) in cases.enumerated() {
                    let answer = await clients.send(
                        PushFixture.push(provider: .apns, token: PushFixture.apnsToken(100 + index)),
                        credentials: PushCredentials(apns: PushFixture.apns))
                    #expect(answer == expected, "\(behaviour)")
                }
            }
            // One request each: nothing retried here, no redirect followed.
            #expect(try server.recorded().count == cases.count)
        }
    }

    @Test func noAnswerWithinTheTimeoutIsRetried() async throws {
        let slow = PushFixture.apnsToken(8)
        try await withPushTestServer(behaviours: [slow: .slow]) { server in
            try await PushFixture.withClients(server, clock: TestClock(), answerTimeout: .seconds(2)) { clients in
                let credentials = PushCredentials(apns: PushFixture.apns)
                // The connection first (tried again on a loaded machine), so that only the answer is timed.
                var connected = false
                for _ in 0..<5 where !connected {
                    connected = await clients.send(PushFixture.push(provider: .apns, token: PushFixture.apnsToken(9)), credentials: credentials) == .delivered
                }
                try #require(connected)
                let started = ContinuousClock.now
                let answer = await clients.send(PushFixture.push(provider: .apns, token: slow), credentials: credentials)
                #expect(answer == .retry(reason: "timeout", retryAfter: nil))
                #expect(ContinuousClock.now - started >= .seconds(2))
            }
        }
    }

    @Test func withoutUsableCredentialsNothingIsSent() async throws {
        try await withPushTestServer { server in
            try await PushFixture.withClients(server, clock: TestClock()) { clients in
                let push = PushFixture.push(provider: .apns, token: PushFixture.apnsToken(10))
                #expect(await clients.send(push, credentials: PushCredentials()) == .failed(reason: "the app has no APNs credentials"))
                var broken = PushFixture.apns
                broken.keyPEM = "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"
                #expect(await clients.send(push, credentials: PushCredentials(apns: broken))
                    == .failed(reason: "the APNs key is not a P-256 private key"))
                let noTopic = PushFixture.push(provider: .apns, token: PushFixture.apnsToken(10), topic: nil)
                #expect(await clients.send(noTopic, credentials: PushCredentials(apns: PushFixture.apns))
                    == .failed(reason: "no apns-topic in the registration"))
            }
            #expect(try server.recorded().isEmpty)
        }
    }

    @Test func theStandInIsNotTrustedWithoutItsCertificateAuthority() async throws {
        try await withPushTestServer { server in
            let endpoints = try PushEndpoints(insecureAPNsURL: server.url, insecureFCMURL: server.url)
            let answer = try await PushFixture.withClients(
                server, clock: TestClock(), answerTimeout: .seconds(2), endpoints: endpoints
            ) { clients in
                await clients.send(
                    PushFixture.push(provider: .apns, token: PushFixture.apnsToken(11)), credentials: PushCredentials(apns: PushFixture.apns))
            }
            guard case .retry(let reason, nil) = answer else {
                Issue.record("expected a retry, got \(answer)")
                return
            }
            #expect(reason.hasPrefix("no connection"))
            #expect(try server.recorded().isEmpty)
        }
    }
}
