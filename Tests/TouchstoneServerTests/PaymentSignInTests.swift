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

/// Payment details at sign-in (PROTOCOL.md "FAPI 2.0", "Payment details at sign-in (RAR)"): the shop asks, through
/// PAR or the authorization endpoint, for a payment the user approves on the phone while the sign-in page waits.
@Suite struct PaymentSignInTests {
    static let payment = CIBATests.payment

    /// Ana's device (demo publisher, as the sign-in page's web logins), and the shop as a confidential client.
    struct Scene {
        let device: TestDevice
        let deviceId: String
        let site: RelyingSite
        var secret: String { site.secret ?? "" }
    }

    static func makeScene(_ h: Harness) async throws -> Scene {
        let device = try await TestDevice()
        let enrolled = try await h.enroll(device)
        var site = RelyingSite()
        try await h.register(&site, confidential: true)
        return Scene(device: device, deviceId: enrolled.deviceId, site: site)
    }

    /// The shop's authorization parameters as a PAR form, with `changes` (a `nil` value removes the parameter).
    static func form(_ scene: Scene, _ changes: [String: String?] = [:]) -> [String: String] {
        var form: [String: String] = ["authorization_details": payment]
        for pair in FormDecoding.pairs(Substring(scene.site.query())) ?? [] { form[pair.name] = pair.value }
        form["client_id"] = nil
        for (name, value) in changes { form[name] = value }
        return form
    }

    static func push(_ h: Harness, _ scene: Scene, _ changes: [String: String?] = [:]) async throws -> TestResponse {
        try await h.postForm("/oauth2/par", form(scene, changes), basic: (scene.site.clientId, scene.secret))
    }

    /// The sign-in page's request id of a pushed request with the payment.
    static func signInRequest(_ h: Harness, _ scene: Scene, cookie: String? = nil) async throws -> String {
        let pushed = try await push(h, scene)
        #expect(pushed.status == .created)
        let requestURI = try h.decode(PushedAuthorizationResponse.self, pushed).requestUri
        return try h.signInRequestId(
            try await h.authorize(
                "client_id=shop&request_uri=" + PercentEncoding.unreserved(requestURI), cookie: cookie))
    }

    /// The page's phone approval for `requestId`: the web login it starts.
    static func startWebLogin(_ h: Harness, for requestId: String?) async throws -> WebLoginStarted {
        let response = try await h.send(
            .post, "/v1/web-logins", json: WebLoginRequest(username: "ana", signInRequestId: requestId))
        #expect(response.status == .created)
        return try h.decode(WebLoginStarted.self, response)
    }

    static func item(_ h: Harness, _ scene: Scene, _ started: WebLoginStarted) async throws -> InboxItem {
        try #require(try await h.inboxItems(scene.device, deviceId: scene.deviceId).first { $0.id == started.webLoginId })
    }

    static func decide(_ h: Harness, _ scene: Scene, _ started: WebLoginStarted, txn: String?) async throws
        -> TestResponse
    {
        let item = try await item(h, scene, started)
        return try await h.decide(
            "web-logins", started.webLoginId,
            try await scene.device.decision(
                deviceId: scene.deviceId, challenge: item.challenge, txn: txn, number: started.number, now: h.now))
    }

    /// The session the approved web login delivers to the page.
    static func approvedSession(_ h: Harness, _ started: WebLoginStarted) async throws -> Session {
        let response = try await h.send(
            .get, "/v1/web-logins/\(started.webLoginId)", headers: [.pollSecret: started.pollSecret])
        return try #require(try h.decode(WebLoginPoll.self, response).session)
    }

    static var expectedTxn: String {
        get throws {
            let details = try AuthorizationDetails(payment)
            return TransactionHash.ofBackchannel(clientId: "shop", bindingMessage: nil, canonicalDetails: details.canonical)
        }
    }

    static func storedRequests(_ h: Harness) async throws -> Int {
        let store = try #require(h.store as? SQLStore)
        return try await store.provider.read { database in
            try await database.raw("SELECT COUNT(*) AS n FROM authorization_requests").first()?
                .decode(column: "n", as: Int.self) ?? 0
        }
    }

    @Test func thePageAndThePhoneShowThePaymentAndThePhoneItsTxn() async throws {
        try await Harness.run { h in
            let scene = try await Self.makeScene(h)
            let requestId = try await Self.signInRequest(h, scene)
            let page = try h.decode(SignInRequest.self, try await h.send(.get, "/oauth2/sign-in/\(requestId)"))
            let sent = try StrictJSONParser.parse(Self.payment.utf8)
            #expect(page.authorizationDetails == sent)
            #expect(page.requiredAcr == .aal2)

            let started = try await Self.startWebLogin(h, for: requestId)
            let item = try await Self.item(h, scene, started)
            #expect(item.kind == .webLogin)
            #expect(item.authorizationDetails == sent)
            #expect(item.txn == (try Self.expectedTxn))
            #expect(item.numbers?.contains(started.number) == true)
        }
    }

    @Test func anotherTxnIsTxnMismatchAndTheItemStaysPending() async throws {
        try await Harness.run { h in
            let scene = try await Self.makeScene(h)
            let started = try await Self.startWebLogin(h, for: try await Self.signInRequest(h, scene))
            let other = TransactionHash.ofBackchannel(clientId: "shop", bindingMessage: nil, canonicalDetails: nil)
            try h.expectProblem(try await Self.decide(h, scene, started, txn: other), 400, .txnMismatch)
            try h.expectProblem(try await Self.decide(h, scene, started, txn: nil), 400, .txnMismatch)
            #expect(try await Self.item(h, scene, started).txn == (try Self.expectedTxn))
            #expect(try await Self.decide(h, scene, started, txn: try Self.expectedTxn).status == .ok)
        }
    }

    @Test func thePhoneApprovalGrantsThePaymentAndTheTokensCarryItAndItsTxn() async throws {
        try await Harness.run { h in
            let scene = try await Self.makeScene(h)
            let requestId = try await Self.signInRequest(h, scene)
            let started = try await Self.startWebLogin(h, for: requestId)
            let txn = try Self.expectedTxn
            #expect(try await Self.decide(h, scene, started, txn: txn).status == .ok)
            let completed = try await h.completeSignIn(requestId, with: try await Self.approvedSession(h, started))
            #expect(completed.status == .ok)
            let redirect = try Redirect(try h.decode(SignInRedirect.self, completed).redirectTo)
            let code = try #require(redirect.parameters["code"])

            let redeemed = try await h.redeem(code, scene.site)
            #expect(redeemed.status == .ok)
            let tokens = try h.decode(OAuthTokenResponse.self, redeemed)
            let sent = try StrictJSONParser.parse(Self.payment.utf8)
            #expect(tokens.authorizationDetails == sent)
            let access = try jwtParts(tokens.accessToken).payload
            #expect(access["txn"] as? String == txn)
            let details = try JSONSerialization.data(withJSONObject: try #require(access["authorization_details"]))
            #expect(try StrictJSONParser.parse(Array(details)) == sent)
            let idToken = try await h.verifiedIDToken(tokens.idToken).claims
            #expect(idToken["txn"] as? String == txn)
            #expect(idToken["acr"] as? String == "aal2")
        }
    }

    @Test func aProviderSessionDoesNotGrantThePaymentAndPromptNoneIsInteractionRequired() async throws {
        try await Harness.run { h in
            let scene = try await Self.makeScene(h)
            let (_, cookie) = try await h.signIn(scene.site.query())
            // Without payment details the session signs in at once; with them, the page is shown.
            #expect(try h.location(try await h.authorize(scene.site.query(), cookie: cookie)).parameters["code"] != nil)
            _ = try await Self.signInRequest(h, scene, cookie: cookie)
            let silent = try h.location(
                try await h.authorize(
                    scene.site.query(["prompt": "none", "authorization_details": Self.payment]), cookie: cookie))
            #expect(silent.parameters["error"] == "interaction_required")
            #expect(silent.parameters["state"] == "st-123" && silent.parameters["code"] == nil)
        }
    }

    @Test func thePasswordOrAnotherPhoneApprovalCannotGrantThePayment() async throws {
        try await Harness.run { h in
            let scene = try await Self.makeScene(h)
            // At the authorization endpoint (not a --fapi client), then the password alone: access_denied, no cookie.
            let requestId = try h.signInRequestId(
                try await h.authorize(scene.site.query(["authorization_details": Self.payment])))
            let insisted = try await h.completeSignIn(requestId, with: try await h.pageSession())
            #expect(insisted.status == .ok && insisted.headers[.setCookie] == nil)
            let refused = try Redirect(try h.decode(SignInRedirect.self, insisted).redirectTo)
            #expect(refused.parameters["error"] == "access_denied" && refused.parameters["code"] == nil)
            try h.expectProblem(try await h.completeSignIn(requestId, with: try await h.pageSession()), 404, .notFound)

            // A phone approval of a web login not started for the request does not grant it either.
            let other = try await Self.signInRequest(h, scene)
            let plain = try await Self.startWebLogin(h, for: nil)
            #expect(try await Self.item(h, scene, plain).txn == nil)
            #expect(try await Self.decide(h, scene, plain, txn: nil).status == .ok)
            let approved = try await h.completeSignIn(other, with: try await Self.approvedSession(h, plain))
            #expect(approved.headers[.setCookie] == nil)
            #expect(try Redirect(try h.decode(SignInRedirect.self, approved).redirectTo).parameters["error"] == "access_denied")
        }
    }

    @Test func aPasskeyCannotGrantThePayment() async throws {
        try await Harness.run { h in
            let passkeys = PasskeyTests()
            let userId = try await h.createAccount()
            var site = RelyingSite()
            try await h.register(&site)
            let authenticator = PasskeyTests.authenticator(seed: 7)
            _ = try await passkeys.register(h, try await passkeys.passwordSession(h), authenticator)
            let requestId = try h.signInRequestId(
                try await h.authorize(site.query(["authorization_details": Self.payment])))
            let passkeySession = try await passkeys.signIn(h, authenticator, username: "ana", userId: userId)
            #expect(passkeySession.acr == "aal2")
            let insisted = try await h.completeSignIn(requestId, with: passkeySession)
            #expect(insisted.status == .ok && insisted.headers[.setCookie] == nil)
            let refused = try Redirect(try h.decode(SignInRedirect.self, insisted).redirectTo)
            #expect(refused.parameters["error"] == "access_denied" && refused.parameters["code"] == nil)
        }
    }

    @Test func paymentDetailsAreBoundByTheirOwnRulesAsAtBackchannelAuthentication() async throws {
        try await Harness.run { h in
            let scene = try await Self.makeScene(h)
            // Ten actions of 200 characters: longer than any other parameter may be, and within RFC 9396 §2.2's rules.
            let actions = Array(repeating: "\"" + String(repeating: "a", count: 200) + "\"", count: 10)
                .joined(separator: ",")
            let long = String(Self.payment.dropLast(2)) + #","actions":["# + actions + "]}]"
            #expect(long.count > 2_048)
            #expect(try await Self.push(h, scene, ["authorization_details": long]).status == .created)
        }
    }

    @Test func malformedPaymentDetailsAreRefusedAndNothingIsStored() async throws {
        try await Harness.run { h in
            let scene = try await Self.makeScene(h)
            let malformed = [
                #"{"type":"payment_initiation"}"#,
                #"[{"type":"payment_initiation","instructedAmount":{"currency":"EUR","amount":"1"},"creditorName":"A","creditorName":"B"}]"#,
                #"[{"type":"account_information"}]"#,
                "not json",
            ]
            for details in malformed {
                let refused = try await Self.push(h, scene, ["authorization_details": details])
                #expect(refused.status == .badRequest)
                #expect(try h.oauthError(refused) == "invalid_authorization_details")
            }
            #expect(try await Self.storedRequests(h) == 0)
            let redirected = try h.location(
                try await h.authorize(scene.site.query(["authorization_details": malformed[0]])))
            #expect(redirected.parameters["error"] == "invalid_authorization_details")
            #expect(try await Self.storedRequests(h) == 0)
        }
    }
}
