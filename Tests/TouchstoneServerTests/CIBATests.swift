import Crypto
import Foundation
import HTTPTypes
import HummingbirdTesting
import SQLKit
import Testing
import TouchstoneCrypto
import TouchstoneProtocol
import TouchstoneTestSupport

@testable import TouchstoneDomain
@testable import TouchstoneHTTP
@testable import TouchstoneStorage

/// OpenID CIBA with payment details (PROTOCOL.md "Decoupled authorization"): a bank's back office asks at
/// `/oauth2/bc-authorize`, Ana's phone shows and signs, the bank polls the token endpoint.
@Suite struct CIBATests {
    static let grantType = "urn:openid:params:grant-type:ciba"
    static let payment = #"[{"type":"payment_initiation","instructedAmount":{"currency":"EUR","amount":"123.50"},"creditorName":"Merchant A","creditorAccount":{"iban":"DE02100100109307118603"},"remittanceInformationUnstructured":"Ref Number Merchant"}]"#

    /// A confidential CIBA client of the demo publisher, and Ana's device enrolled in the demo app.
    struct Scene {
        let device: TestDevice
        let deviceId: String
        let clientId: String
        let secret: String
        var basic: (id: String, secret: String) { (clientId, secret) }
    }

    /// Registers a confidential client as `admin app create … --client-secret --ciba-mode` does.
    static func register(
        _ h: Harness, clientId: String, mode: String = "poll", endpoint: String? = nil, publisher: String = "demo"
    ) async throws -> String {
        try await h.saveApp(AppPolicy(clientId: clientId, publisher: publisher))
        var registration = OIDCClientRegistration(
            clientId: clientId, name: "Example Bank", redirectURIs: [], postLogoutRedirectURIs: [], confidential: true,
            idTokenAlgorithm: "ES256")
        registration.ciba = CIBAClientRegistration(mode: mode, notificationEndpoint: endpoint)
        let (record, secret) = try registration.record(random: SystemRandom())
        try await h.store.saveOIDCClient(record)
        try await h.store.saveCIBAClient(
            try #require(registration.ciba).record(clientId: clientId, confidential: true))
        return try #require(secret)
    }

    static func makeScene(_ h: Harness, mode: String = "poll", endpoint: String? = nil) async throws -> Scene {
        let secret = try await register(h, clientId: "bank", mode: mode, endpoint: endpoint)
        let device = try await TestDevice()
        let enrolled = try await h.enroll(device)
        return Scene(device: device, deviceId: enrolled.deviceId, clientId: "bank", secret: secret)
    }

    static let request = [
        "scope": "openid offline_access", "login_hint": "ana", "binding_message": "Pay 123.50 EUR to Merchant A",
        "authorization_details": payment,
    ]

    static func authorize(
        _ h: Harness, _ scene: Scene, _ changes: [String: String?] = [:], basic: (id: String, secret: String)? = nil
    ) async throws -> TestResponse {
        var form = request
        for (name, value) in changes { form[name] = value }
        return try await h.postForm("/oauth2/bc-authorize", form, basic: basic ?? scene.basic)
    }

    /// `auth_req_id` of an accepted request.
    static func authorized(_ h: Harness, _ scene: Scene, _ changes: [String: String?] = [:]) async throws -> String {
        let response = try await authorize(h, scene, changes)
        #expect(response.status == .ok)
        #expect(response.headers[.cacheControl] == "no-store")
        let answer = try h.decode(BackchannelAuthentication.self, response)
        #expect(answer.interval == 5)
        #expect(Base64URL.decode(answer.authRequestId)?.count ?? 0 >= 16)
        return answer.authRequestId
    }

    static func poll(_ h: Harness, _ scene: Scene, _ authRequestId: String, basic: (id: String, secret: String)? = nil)
        async throws -> TestResponse
    {
        try await h.postForm(
            "/oauth2/token", ["grant_type": grantType, "auth_req_id": authRequestId], basic: basic ?? scene.basic)
    }

    /// The OAuth error a poll gets.
    static func pollError(_ h: Harness, _ scene: Scene, _ authRequestId: String) async throws -> String {
        let response = try await poll(h, scene, authRequestId)
        #expect(response.status == .badRequest)
        return try h.oauthError(response)
    }

    static func cibaItems(_ h: Harness, _ scene: Scene) async throws -> [InboxItem] {
        try await h.inboxItems(scene.device, deviceId: scene.deviceId).filter { $0.kind == .ciba }
    }

    static func decide(_ h: Harness, _ scene: Scene, _ item: InboxItem, approve: Bool = true, txn: String? = nil)
        async throws -> TestResponse
    {
        try await h.decide(
            "ciba", item.id,
            try await scene.device.decision(
                deviceId: scene.deviceId, challenge: item.challenge, approve: approve, txn: txn ?? item.txn, now: h.now))
    }

    /// Rows of the CIBA tables: nothing stored for a refused request.
    static func storedRequests(_ h: Harness) async throws -> Int {
        let store = try #require(h.store as? SQLStore)
        return try await store.provider.read { database in
            try await database.raw("SELECT COUNT(*) AS n FROM ciba_requests").first()?.decode(column: "n", as: Int.self)
                ?? 0
        }
    }

    // MARK: The request

    @Test func theDeviceShowsTheRequestWithTheTxnThatCommitsToItsMessageAndPayment() async throws {
        try await Harness.run { h in
            let scene = try await Self.makeScene(h)
            _ = try await Self.authorized(h, scene)
            let item = try #require(try await Self.cibaItems(h, scene).first)
            #expect(item.clientId == "bank")
            #expect(item.clientName == "Example Bank")
            #expect(item.publisher == "demo")
            #expect(item.scope == "openid offline_access")
            #expect(item.bindingMessage == "Pay 123.50 EUR to Merchant A")
            #expect(item.authorizationDetails == (try StrictJSONParser.parse(Self.payment.utf8)))
            let canonical = #"[{"creditorAccount":{"iban":"DE02100100109307118603"},"creditorName":"Merchant A","instructedAmount":{"amount":"123.50","currency":"EUR"},"remittanceInformationUnstructured":"Ref Number Merchant","type":"payment_initiation"}]"#
            let input = "touchstone-ciba-v1\nbank\nPay 123.50 EUR to Merchant A\n" + canonical
            #expect(item.txn == Base64URL.encode(SHA256.hash(data: Array(input.utf8))))
            // The item's id is its own: the auth_req_id never reaches a device.
            let raw = try h.jsonObject(try await h.deviceInbox(scene.device, deviceId: scene.deviceId))
            #expect(!"\(raw)".contains("auth_req"))
        }
    }

    /// Each malformed request gets the contract's error and stores nothing.
    @Test func everyMalformedRequestGetsItsErrorAndStoresNothing() async throws {
        let cases: [([String: String?], String)] = [
            (["scope": nil], "invalid_scope"),
            (["scope": "profile"], "invalid_scope"),
            (["login_hint": nil], "invalid_request"),
            (["id_token_hint": "a.b.c"], "invalid_request"),
            (["login_hint": nil, "id_token_hint": "a.b.c"], "invalid_request"),
            (["login_hint_token": "x"], "invalid_request"),
            (["binding_message": "two\nlines"], "invalid_binding_message"),
            (["binding_message": String(repeating: "a", count: 201)], "invalid_binding_message"),
            (["binding_message": "..."], "invalid_binding_message"),
            (["binding_message": "Pay\u{00A0}100"], "invalid_binding_message"),
            (["binding_message": "e\u{301}"], "invalid_binding_message"),
            (["requested_expiry": "29"], "invalid_request"),
            (["requested_expiry": "601"], "invalid_request"),
            (["requested_expiry": "+60"], "invalid_request"),
            (["acr_values": "aal1"], "invalid_request"),
            (["acr_values": "aal2 aal1"], "invalid_request"),
            (["client_notification_token": "abc"], "invalid_request"),
            (["authorization_details": "{}"], "invalid_authorization_details"),
            (["authorization_details": #"[{"type":"payment_initiation","type":"payment_initiation"}]"#], "invalid_authorization_details"),
        ]
        try await Harness.run { h in
            let scene = try await Self.makeScene(h)
            for (changes, error) in cases {
                let response = try await Self.authorize(h, scene, changes)
                #expect(response.status == .badRequest, "\(changes)")
                #expect(try h.oauthError(response) == error, "\(changes)")
            }
            let wrongSecret = try await Self.authorize(h, scene, basic: ("bank", "wrong"))
            #expect(wrongSecret.status == .unauthorized)
            #expect(try h.oauthError(wrongSecret) == "invalid_client")
            var shop = RelyingSite()
            try await h.register(&shop, confidential: true)
            let notCIBA = try await Self.authorize(h, scene, basic: (shop.clientId, try #require(shop.secret)))
            #expect(try h.oauthError(notCIBA) == "unauthorized_client")
            #expect(try await Self.storedRequests(h) == 0)
            #expect(try await Self.cibaItems(h, scene).isEmpty)
        }
    }

    /// The `authorization_details` rules, each refusal `invalid_authorization_details`.
    @Test(arguments: [
        "not json", "{}", "[]", #"[{"type":"payment_initiation"}]"#, "[\(CIBATests.detail()),\(CIBATests.detail())]",
        CIBATests.detailArray(["type": #""account_information""#]),
        CIBATests.detailArray(["extra": #""x""#]),
        CIBATests.detailArray(["instructedAmount": #"{"currency":"EUR","amount":123.5}"#]),
        CIBATests.detailArray(["instructedAmount": #"{"currency":"eur","amount":"1"}"#]),
        CIBATests.detailArray(["instructedAmount": #"{"currency":"EUR","amount":"01"}"#]),
        CIBATests.detailArray(["instructedAmount": #"{"currency":"EUR","amount":"1.12345"}"#]),
        CIBATests.detailArray(["instructedAmount": #"{"currency":"EUR","amount":"1","x":"y"}"#]),
        CIBATests.detailArray(["instructedAmount": #"{"currency":"EUR","amount":"1","amount":"2"}"#]),
        CIBATests.detailArray(["creditorName": "true"]),
        CIBATests.detailArray(["creditorName": "null"]),
        CIBATests.detailArray(["creditorName": "\"" + String(repeating: "M", count: 101) + "\""]),
        CIBATests.detailArray(["creditorName": #""Merchant\u00a0A""#]),
        CIBATests.detailArray(["creditorName": #""Merchant\u200bA""#]),
        CIBATests.detailArray(["creditorName": #""\ud800A""#]),
        CIBATests.detailArray(["creditorAccount": #"{"iban":"de02100100109307118603"}"#]),
        CIBATests.detailArray(["creditorAccount": #"{"iban":"DE0210010010"}"#]),
        CIBATests.detailArray(["creditorAccount": #"{"iban":"DE02100100109307118603","bic":"X"}"#]),
        CIBATests.detailArray(["remittanceInformationUnstructured": #""line\nbreak""#]),
        CIBATests.detailArray(["actions": "[]"]),
        CIBATests.detailArray(["actions": "[" + Array(repeating: #""a""#, count: 11).joined(separator: ",") + "]"]),
        CIBATests.detailArray(["actions": #"["initiate",1]"#]),
        CIBATests.detailArray(["locations": #"[""]"#]),
        CIBATests.detailArray(["locations": #""https://bank.example""#]),
        // A second member of one name: one reader would show one payee, another would pay another.
        CIBATests.detailArray().replacingOccurrences(
            of: #""creditorName":"Merchant A""#, with: #""creditorName":"Merchant A","creditorName":"Mallory""#),
    ])
    func malformedPaymentDetailsAreRefused(_ text: String) {
        #expect {
            _ = try AuthorizationDetails(text)
        } throws: { error in
            (error as? OAuthError)?.code == .invalidAuthorizationDetails
        }
    }

    @Test func wellFormedPaymentDetailsAreKeptAsSentAndCanonicalised() throws {
        let text = Self.detailArray([
            "actions": #"["initiate","status"]"#, "locations": #"["https://bank.example/payments"]"#,
            "creditorName": #""Café Zürich 東京""#,
        ])
        let details = try AuthorizationDetails(text)
        #expect(details.value == (try StrictJSONParser.parse(text.utf8)))
        #expect(String(decoding: details.canonical, as: UTF8.self).hasPrefix(#"[{"actions":["initiate","status"],"#))
    }

    /// One payment_initiation object with `changes` applied to its members (values are JSON texts).
    static func detail(_ changes: [String: String] = [:]) -> String {
        var members: [String: String] = [
            "type": #""payment_initiation""#, "instructedAmount": #"{"currency":"EUR","amount":"123.50"}"#,
            "creditorName": #""Merchant A""#, "creditorAccount": #"{"iban":"DE02100100109307118603"}"#,
            "remittanceInformationUnstructured": #""Ref Number Merchant""#,
        ]
        members.merge(changes) { $1 }
        return "{" + members.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",") + "}"
    }

    static func detailArray(_ changes: [String: String] = [:]) -> String { "[" + detail(changes) + "]" }

    // MARK: Anti-enumeration

    /// An unknown user, and a request beyond the limits, get the same answer; nothing is delivered and the request
    /// ends expired_token.
    @Test func unknownUsersAndRequestsBeyondTheLimitsAreAnsweredAlikeAndNeverDelivered() async throws {
        try await Harness.run { h in
            let scene = try await Self.makeScene(h)
            let unknown = try await Self.authorize(h, scene, ["login_hint": "nobody"])
            let known = try await Self.authorize(h, scene)
            #expect(unknown.status == known.status)
            #expect(Set(try h.jsonObject(unknown).keys) == Set(try h.jsonObject(known).keys))
            let unknownId = try h.decode(BackchannelAuthentication.self, unknown).authRequestId
            // A second request of the same client while one is pending: answered, not delivered.
            let beyond = try await Self.authorized(h, scene, ["binding_message": "Another one"])
            let items = try await Self.cibaItems(h, scene)
            #expect(items.count == 1)
            #expect(items.first?.bindingMessage == "Pay 123.50 EUR to Merchant A")
            h.clock.advance(by: 6)
            #expect(try await Self.pollError(h, scene, unknownId) == "authorization_pending")
            #expect(try await Self.pollError(h, scene, beyond) == "authorization_pending")
            h.clock.advance(by: 300)
            #expect(try await Self.pollError(h, scene, unknownId) == "expired_token")
            #expect(try await Self.pollError(h, scene, beyond) == "expired_token")
        }
    }

    // MARK: The token endpoint

    /// A poll sooner than the interval is slow_down and adds 5 s for good; one after it is authorization_pending.
    @Test func pollsTooSoonSlowDownAndTheIntervalGrows() async throws {
        try await Harness.run { h in
            let scene = try await Self.makeScene(h)
            let id = try await Self.authorized(h, scene)
            #expect(try await Self.pollError(h, scene, id) == "slow_down")  // at 0 s, interval now 10
            h.clock.advance(by: 6)
            #expect(try await Self.pollError(h, scene, id) == "slow_down")  // 6 s after, interval now 15
            h.clock.advance(by: 14)
            #expect(try await Self.pollError(h, scene, id) == "slow_down")  // 14 s after, interval now 20
            h.clock.advance(by: 20)
            #expect(try await Self.pollError(h, scene, id) == "authorization_pending")
            h.clock.advance(by: 19)
            #expect(try await Self.pollError(h, scene, id) == "slow_down")
        }
    }

    @Test func anApprovalGivesTokensOnceWithTheTxnThePaymentAndPhoneApprovalsAMR() async throws {
        try await Harness.run { h in
            let scene = try await Self.makeScene(h)
            let id = try await Self.authorized(h, scene)
            h.clock.advance(by: 3)
            let item = try #require(try await Self.cibaItems(h, scene).first)
            let decided = try await Self.decide(h, scene, item)
            #expect(decided.status == .ok)
            #expect(try h.decode(DecisionRecorded.self, decided).status == .approved)
            let decidedAt = Int64(h.now.timeIntervalSince1970)
            h.clock.advance(by: 5)
            let response = try await Self.poll(h, scene, id)
            #expect(response.status == .ok)
            #expect(response.headers[.cacheControl] == "no-store")
            let body = try h.jsonObject(response)
            let tokens = try h.decode(OAuthTokenResponse.self, response)
            #expect(tokens.authorizationDetails == (try StrictJSONParser.parse(Self.payment.utf8)))
            #expect(tokens.refreshToken != nil)
            #expect(tokens.scope == "openid offline_access")
            #expect(body["authorization_details"] != nil)
            let (_, idToken) = try await h.verifiedIDToken(tokens.idToken)
            #expect(idToken["txn"] as? String == item.txn)
            #expect(idToken["acr"] as? String == "aal2")
            #expect(idToken["amr"] as? [String] == ["hwk", "fpt", "mfa"])
            #expect(idToken["auth_time"] as? Int64 == decidedAt)
            #expect(idToken["aud"] as? String == "bank")
            #expect(idToken["nonce"] == nil)
            #expect(idToken["at_hash"] as? String == TokenEndpointService.leftHalfHash(tokens.accessToken))
            let (header, access) = try jwtParts(tokens.accessToken)
            #expect(header["typ"] as? String == "at+jwt")
            #expect(access["aud"] as? String == "bank")
            #expect(access["txn"] as? String == item.txn)
            let granted = try #require(access["authorization_details"] as? [[String: Any]])
            #expect(granted.first?["creditorName"] as? String == "Merchant A")
            #expect(try await h.userInfo(tokens.accessToken).status == .ok)
            // Spent.
            #expect(try await Self.pollError(h, scene, id) == "invalid_grant")
            let refreshed = try await h.postForm(
                "/oauth2/token", ["grant_type": "refresh_token", "refresh_token": try #require(tokens.refreshToken)],
                basic: scene.basic)
            #expect(refreshed.status == .ok)
        }
    }

    @Test func aDenialIsAccessDeniedAndAnExpiryExpiredToken() async throws {
        try await Harness.run { h in
            let scene = try await Self.makeScene(h)
            let denied = try await Self.authorized(h, scene, ["requested_expiry": "60"])
            let item = try #require(try await Self.cibaItems(h, scene).first)
            #expect(try h.decode(DecisionRecorded.self, try await Self.decide(h, scene, item, approve: false)).status == .denied)
            h.clock.advance(by: 6)
            #expect(try await Self.pollError(h, scene, denied) == "access_denied")
            h.clock.advance(by: 120)
            #expect(try await Self.pollError(h, scene, denied) == "access_denied")
            // 15 minutes after a denial, requests are answered and not delivered; after them, delivered again.
            h.clock.advance(by: 900)
            let expiring = try await Self.authorized(h, scene, ["requested_expiry": "30"])
            let pending = try #require(try await Self.cibaItems(h, scene).first)
            h.clock.advance(by: 31)
            #expect(try await Self.pollError(h, scene, expiring) == "expired_token")
            #expect(try await Self.cibaItems(h, scene).isEmpty)
            #expect(try await Self.decide(h, scene, pending).status == .gone)
        }
    }

    @Test func anotherClientsAuthRequestIdIsInvalidGrant() async throws {
        try await Harness.run { h in
            let scene = try await Self.makeScene(h)
            let otherSecret = try await Self.register(h, clientId: "other-bank")
            let id = try await Self.authorized(h, scene)
            let item = try #require(try await Self.cibaItems(h, scene).first)
            _ = try await Self.decide(h, scene, item)
            let stolen = try await Self.poll(h, scene, id, basic: ("other-bank", otherSecret))
            #expect(stolen.status == .badRequest)
            #expect(try h.oauthError(stolen) == "invalid_grant")
            #expect(try await Self.pollError(h, scene, "unknown-\(id)") == "invalid_grant")
            // The right client still gets its tokens.
            #expect(try await Self.poll(h, scene, id).status == .ok)
        }
    }

    @Test func aDecisionWithAnotherTxnIsRefusedAndTheRequestStaysPending() async throws {
        try await Harness.run { h in
            let scene = try await Self.makeScene(h)
            let id = try await Self.authorized(h, scene)
            let item = try #require(try await Self.cibaItems(h, scene).first)
            let forged = TransactionHash.ofBackchannel(
                clientId: "bank", bindingMessage: "Pay 1.00 EUR to Merchant A", canonicalDetails: nil)
            try await h.expectProblem(try await Self.decide(h, scene, item, txn: forged), 400, .txnMismatch)
            #expect(try await Self.cibaItems(h, scene).map(\.id) == [item.id])
            h.clock.advance(by: 6)
            #expect(try await Self.pollError(h, scene, id) == "authorization_pending")
        }
    }

    /// A delivered request is pushed to the phone in its own transaction (kind and ids only); one answered for an
    /// unknown user, or beyond the limits, queues nothing; a decided one's push is dropped, not sent.
    @Test func aDeliveredRequestIsPushedAndAnUndeliveredOneIsNot() async throws {
        try await Harness.run { h in
            let scene = try await Self.makeScene(h)
            try await h.store.registerPush(
                PushRegistration(
                    deviceId: scene.deviceId, provider: .apns, token: String(repeating: "ab", count: 32),
                    topic: "com.example.demo", environment: .development, registeredAt: h.now))
            _ = try await Self.authorized(h, scene, ["login_hint": "nobody"])
            #expect(try await h.store.pushOutbox.queuedCount() == 0)
            _ = try await Self.authorized(h, scene)
            _ = try await Self.authorized(h, scene, ["binding_message": "Beyond the limits"])
            #expect(try await h.store.pushOutbox.queuedCount() == 1)
            let item = try #require(try await Self.cibaItems(h, scene).first)
            let claimed = try await h.store.pushOutbox.claimDue(
                claimant: "a", now: h.now, leaseUntil: h.now.addingTimeInterval(30), limit: 10)
            #expect(claimed.map(\.reference) == [PushReference(kind: .ciba, id: item.id, deviceId: scene.deviceId)])
            try await h.store.pushOutbox.retry(id: try #require(claimed.first).id, claimant: "a", dueAt: h.now)
            _ = try await Self.decide(h, scene, item)
            let afterDecision = try await h.store.pushOutbox.claimDue(
                claimant: "a", now: h.now, leaseUntil: h.now.addingTimeInterval(30), limit: 10)
            #expect(afterDecision.isEmpty)
            #expect(try await h.store.pushOutbox.queuedCount() == 0)
        }
    }

    /// An ID token this server issued to this client names the user, expired or not; another client's is refused.
    @Test func anIDTokenHintOfThisClientNamesTheUserAndAnotherClientsIsRefused() async throws {
        try await Harness.run { h in
            let scene = try await Self.makeScene(h)
            let otherSecret = try await Self.register(h, clientId: "other-bank")
            let first = try await Self.authorized(h, scene, ["scope": "openid"])
            _ = try await Self.decide(h, scene, try #require(try await Self.cibaItems(h, scene).first))
            let tokens = try h.decode(OAuthTokenResponse.self, try await Self.poll(h, scene, first))
            #expect(tokens.refreshToken == nil)  // no offline_access
            h.clock.advance(by: 3_600)  // the ID token has expired: a hint's expiry is not checked
            let hinted = try await Self.authorized(
                h, scene, ["login_hint": nil, "id_token_hint": tokens.idToken, "acr_values": "aal2"])
            let item = try #require(try await Self.cibaItems(h, scene).first)
            #expect(item.bindingMessage == "Pay 123.50 EUR to Merchant A")
            _ = try await Self.decide(h, scene, item)
            #expect(try await Self.poll(h, scene, hinted).status == .ok)
            let foreign = try await h.postForm(
                "/oauth2/bc-authorize",
                ["scope": "openid", "id_token_hint": tokens.idToken], basic: ("other-bank", otherSecret))
            #expect(foreign.status == .badRequest)
            #expect(try h.oauthError(foreign) == "invalid_request")
        }
    }

    /// A request reaches only the user's devices under the client's publisher: another publisher's device neither sees
    /// it nor may decide it; an unknown item is 404.
    @Test func onlyDevicesOfTheClientsPublisherSeeAndDecideTheRequest() async throws {
        try await Harness.run { h in
            let device = try await TestDevice()
            let enrolled = try await h.enroll(device)
            let secret = try await Self.register(h, clientId: "bank", publisher: "banks")
            let scene = Scene(device: device, deviceId: enrolled.deviceId, clientId: "bank", secret: secret)
            let id = try await Self.authorized(h, scene)
            #expect(try await Self.cibaItems(h, scene).isEmpty)
            let request = try #require(
                try await h.store.cibaRequest(authRequestHash: SecretDigest.sha256(id)))
            let forged = InboxItem(
                kind: .ciba, id: request.id, clientId: "bank", publisher: "banks", challenge: request.challenge,
                expiresAt: request.expiresAt, txn: request.txn)
            try await h.expectProblem(try await Self.decide(h, scene, forged), 401, .challengeInvalid)
            try await h.expectProblem(
                try await h.decide(
                    "ciba", "no-such-request",
                    try await device.decision(deviceId: enrolled.deviceId, challenge: request.challenge, now: h.now)),
                404, .notFound)
            h.clock.advance(by: 6)
            #expect(try await Self.pollError(h, scene, id) == "authorization_pending")
        }
    }

    @Test func discoveryNamesTheBackchannelEndpointModesAndDetailTypes() async throws {
        try await Harness.run { h in
            let configuration = try h.jsonObject(try await h.send(.get, "/.well-known/openid-configuration"))
            #expect(configuration["backchannel_authentication_endpoint"] as? String == Harness.issuer + "/oauth2/bc-authorize")
            #expect(configuration["backchannel_token_delivery_modes_supported"] as? [String] == ["poll", "ping"])
            #expect(configuration["backchannel_user_code_parameter_supported"] as? Bool == false)
            #expect(configuration["authorization_details_types_supported"] as? [String] == ["payment_initiation"])
            #expect((configuration["grant_types_supported"] as? [String])?.contains(Self.grantType) == true)
        }
    }
}
