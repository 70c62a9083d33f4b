import Foundation
import Testing
import TouchstoneProtocol
import TouchstoneTestSupport

extension WebPageTests {
    /// Sign up, add a passkey on a password session, sign out, sign in with it by username and usernameless; the
    /// page's own assertion replayed is refused; removal waits for a step-up.
    @Test("a passkey from sign-up to removal, all on the page")
    func passkeyLifecycle() async throws {
        try await BrowserHarness.run { harness in
            let page = harness.page
            try await page.screenshot("01-sign-in")
            try await page.click("#go-sign-up")
            try await page.waitUntilVisible("#view-sign-up")
            try await page.screenshot("02-sign-up")

            try await page.signUp("ana", password: BrowserHarness.password)
            try await page.waitForAccountLists()
            #expect(try await page.text("#account-who") == "Signed in as ana")
            #expect(try await page.text("#session-method") == "Password")
            #expect(try await page.text("#session-assurance").contains("aal1"))
            #expect(try await page.isVisible("#aal1-notice"))
            #expect(try await page.isVisible("#passkeys-empty"))
            try await page.screenshot("03-account-password-session")

            // A password session may register the first passkey.
            try await page.addPasskey(named: "Work laptop", screenshot: "04-add-passkey")
            #expect(try await page.isVisible("#toast"))
            try await page.screenshot("05-passkey-added")
            #expect(try await harness.serverPasskeyNames("ana") == ["Work laptop"])
            let stored = try await page.send("WebAuthn.getCredentials", ["authenticatorId": .string(page.authenticatorId)])
            #expect(stored["credentials"]?[0]?["isResidentCredential"]?.bool == true, "a discoverable credential")

            // Removing needs a strong sign-in: the dialog explains instead of asking for the password.
            try await page.click("#passkey-list .item-remove")
            try await page.waitUntil("document.querySelector('#dialog-remove').open", "the removal dialog")
            #expect(try await page.text("#remove-text").contains("password only"))
            #expect(try await !page.isVisible("#remove-password"))
            #expect(try await !page.isVisible("#remove-submit"))
            try await page.screenshot("06-password-session-cannot-remove")
            try await page.click("#remove-cancel")

            try await page.signOut()
            try await page.screenshot("07-signed-out")

            // By username.
            try await page.signInWithPasskey("ana")
            #expect(try await page.text("#session-method") == "Passkey")
            #expect(try await page.text("#session-assurance").contains("aal2"))
            #expect(try await !page.isVisible("#aal1-notice"))
            try await page.waitForAccountLists()
            try await page.screenshot("08-signed-in-with-passkey")

            // The assertion the page posted cannot be used again, nor for another ceremony.
            let posted = try #require(try await page.postedBodies(to: "/v1/webauthn/authentication/verify").last)
            let replay = try await harness.post("/v1/webauthn/authentication/verify", json: Data(posted.utf8))
            expectProblem(replay, 401, "ceremony_invalid")
            let fresh = try await harness.post("/v1/webauthn/authentication/options", json: Data(#"{"username":"ana"}"#.utf8))
            #expect(fresh.status == 200, "\(fresh)")
            var moved = try JSONValue(parsing: Data(posted.utf8)).object ?? [:]
            moved["ceremonyId"] = try JSONValue(parsing: fresh.body)["ceremonyId"]
            let elsewhere = try await harness.post(
                "/v1/webauthn/authentication/verify", json: try JSONValue.object(moved).serialized())
            expectProblem(elsewhere, 401, "webauthn_verification_failed")

            // Usernameless: the options name no user and the browser offers the discoverable credential.
            try await page.signOut()
            try await page.signInWithPasskey(nil)
            // The page learns the username from GET /v1/account.
            try await page.waitUntil(
                "document.querySelector('#account-who').textContent === 'Signed in as ana'", "the page names the user")
            #expect(try await page.text("#topbar-user") == "Signed in as ana")
            #expect(try await page.text("#session-method") == "Passkey")
            let options = try await page.postedBodies(to: "/v1/webauthn/authentication/options")
            #expect(options.last == "{}", "usernameless options: \(options)")
            try await page.waitForAccountLists()
            try await page.screenshot("09-signed-in-usernameless")

            // Removal behind step-up: a wrong password is refused, the right one unlocks the window.
            try await page.click("#passkey-list .item-remove")
            try await page.waitUntilVisible("#remove-password")
            #expect(try await page.text("#remove-text").contains("Work laptop"))
            try await page.screenshot("10-step-up")
            try await page.type("#remove-password", "not-the-password")
            try await page.click("#remove-submit")
            try await page.waitUntilVisible("#remove-error")
            #expect(try await page.text("#remove-error") == "That password is not right. Try again.")
            try await page.screenshot("11-step-up-wrong-password")
            try await page.type("#remove-password", BrowserHarness.password)
            try await page.click("#remove-submit")
            try await page.waitUntil("!document.querySelector('#dialog-remove').open", "the dialog to close")
            try await page.waitUntilVisible("#passkeys-empty")
            #expect(try await page.text("#session-privilege").hasPrefix("Unlocked"))
            #expect(try await page.text("#toast") == "Passkey “Work laptop” removed.")
            try await page.screenshot("12-passkey-removed")
            #expect(try await harness.serverPasskeyNames("ana").isEmpty)

            // Tokens stayed in page memory.
            #expect(
                try await page.evaluate("document.cookie === '' && localStorage.length === 0 && sessionStorage.length === 0")
                    == .bool(true))
            expectNoPageProblems(page)
        }
    }

    /// Assertions made in the page for fresh ceremonies, posted from the test: a changed clientDataJSON is refused
    /// whether or not its challenge and origin still match; the untouched one is accepted.
    @Test("a tampered clientDataJSON is refused")
    func tamperedClientData() async throws {
        try await BrowserHarness.run { harness in
            let page = harness.page
            try await harness.createAccount("bo")
            try await page.signInWithPassword("bo", password: BrowserHarness.password)
            try await page.addPasskey(named: "Test key")

            let extraMember = try await freshAssertion(page, username: "bo")
            let tampered = try tamperClientData(extraMember) { clientData in clientData["tampered"] = true }
            expectProblem(try await harness.post("/v1/webauthn/authentication/verify", json: tampered), 401,
                "webauthn_verification_failed")

            let otherOrigin = try await freshAssertion(page, username: "bo")
            let moved = try tamperClientData(otherOrigin) { clientData in clientData["origin"] = "http://evil.example" }
            expectProblem(try await harness.post("/v1/webauthn/authentication/verify", json: moved), 401,
                "webauthn_verification_failed")

            let untouched = try await freshAssertion(page, username: "bo")
            let accepted = try await harness.post("/v1/webauthn/authentication/verify", json: try untouched.serialized())
            #expect(accepted.status == 201, "\(accepted)")
            let session = try accepted.decode(Session.self)
            #expect(session.amr == ["passkey"])
            #expect(session.acr == "aal2")
            #expect(session.deviceId == nil)
        }
    }
}

/// `{ceremonyId, credential}` for a new authentication ceremony, the assertion made by the page's authenticator.
func freshAssertion(_ page: BrowserPage, username: String) async throws -> JSONValue {
    let json = try await page.evaluate(
        """
        (async () => {
          const answer = await fetch('/v1/webauthn/authentication/options', {method: 'POST',
            headers: {'Content-Type': 'application/json'}, body: JSON.stringify({username: \(BrowserPage.quoted(username))})});
          const options = await answer.json();
          const credential = await navigator.credentials.get({
            publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(options.publicKey)});
          return JSON.stringify({ceremonyId: options.ceremonyId, credential: credential.toJSON()});
        })()
        """)
    return try JSONValue(parsing: Data(try #require(json.string, "assertion: \(json)").utf8))
}

/// The body with its clientDataJSON decoded, changed by `change`, and encoded again; the signature is untouched.
func tamperClientData(_ body: JSONValue, _ change: (inout [String: JSONValue]) -> Void) throws -> Data {
    var object = try #require(body.object)
    var credential = try #require(object["credential"]?.object)
    var response = try #require(credential["response"]?.object)
    let encoded = try #require(response["clientDataJSON"]?.string)
    let decoded = try #require(Base64URL.decode(encoded))
    var clientData = try #require(try JSONValue(parsing: decoded).object)
    change(&clientData)
    response["clientDataJSON"] = .string(Base64URL.encode(try JSONValue.object(clientData).serialized()))
    credential["response"] = .object(response)
    object["credential"] = .object(credential)
    return try JSONValue.object(object).serialized()
}

/// Checks a problem+json refusal: status and `code`.
func expectProblem(
    _ response: WireResponse, _ status: Int, _ code: String, sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(response.status == status, "\(response)", sourceLocation: sourceLocation)
    #expect(response.header("Content-Type")?.hasPrefix("application/problem+json") == true, sourceLocation: sourceLocation)
    #expect((try? response.object()["code"] as? String) == code, "\(response)", sourceLocation: sourceLocation)
}

/// No script error, no console error and no Content-Security-Policy violation on the page. Refused requests (a
/// wrong password's 401) are logged by the browser as network errors: those are the page working as designed.
func expectNoPageProblems(_ page: BrowserPage, sourceLocation: SourceLocation = #_sourceLocation) {
    let problems = page.problemsLogged().filter { !$0.hasPrefix("network:") }
    #expect(problems.isEmpty, "\(problems)", sourceLocation: sourceLocation)
}
