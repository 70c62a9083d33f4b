import Crypto
import Foundation
import Testing
import TouchstoneProtocol
import TouchstoneTestSupport

extension WebPageTests {
    /// "Sign in with Touchstone" in Chromium: a site sends the browser to the provider, the page names the site, the
    /// user signs in with the password and the browser comes back with a code the site redeems; the provider session
    /// then signs in again without a page; `acr_values=aal2` hides the password and takes a passkey; Cancel sends
    /// `access_denied`. Screenshots of the sign-in page at desktop and phone width, light and dark.
    @Test("a site signs its user in through the provider's page")
    func signInForAnotherSite() async throws {
        try await BrowserHarness.run { harness in
            let page = harness.page
            let issuer = harness.server.issuer
            let site = try await ShopSite.register(harness)
            try await page.signUp("ana", password: BrowserHarness.password)
            try await page.waitForAccountLists()
            try await page.addPasskey(named: "Laptop")
            try await page.signOut()

            func authorize(_ extra: [String: String] = [:]) throws -> URL { try site.authorize(extra) }
            func landedParameters() async throws -> [String: String] { try await site.landedParameters(page) }

            // The page names the site that asks.
            try await page.navigate(try authorize())
            try await page.waitUntil(
                "document.querySelector('#sign-in-title').textContent === 'Sign in to The Shop'", "the site's name")
            #expect(try await page.isVisible("#provider-cancel"))
            #expect(try await page.isVisible("#tab-password"))
            try await page.screenshot("provider-01-desktop-light")
            try await page.resize(width: 390, height: 844, mobile: true)
            try await page.screenshot("provider-02-phone-light")
            try await page.send(
                "Emulation.setEmulatedMedia", ["features": [["name": "prefers-color-scheme", "value": "dark"]]])
            try await page.screenshot("provider-03-phone-dark")
            try await page.resize(width: 1280, height: 900)
            try await page.screenshot("provider-04-desktop-dark")
            try await page.send("Emulation.setEmulatedMedia", ["features": []])

            // The password, then back to the site with a code that the site redeems.
            try await page.click("#tab-password")
            try await page.type("#password-username", "ana")
            try await page.type("#password-password", BrowserHarness.password)
            try await page.click("#password-submit")
            let landed = try await landedParameters()
            #expect(landed["state"] == "st-1" && landed["iss"] == issuer, "\(landed)")
            let code = try #require(landed["code"])
            let tokens = try await site.redeem(code, harness)
            #expect(tokens.status == 200, "\(tokens)")
            let idToken = try #require(try tokens.object()["id_token"] as? String)
            let payload = try #require(Base64URL.decode(String(idToken.split(separator: ".")[1])))
            let claims = try #require(try JSONSerialization.jsonObject(with: payload) as? [String: Any])
            #expect(claims["acr"] as? String == "aal1" && claims["amr"] as? [String] == ["pwd"], "\(claims)")
            #expect(claims["preferred_username"] as? String == "ana")

            // The provider session (an HttpOnly cookie the page never sees) signs in again at once.
            #expect(try await page.evaluate("document.cookie").string == "")
            try await page.send("Page.navigate", ["url": .string(try authorize(["state": "st-2"]).absoluteString)])
            let again = try await landedParameters()
            #expect(again["state"] == "st-2" && again["code"] != nil, "\(again)")

            // aal2: a password is not offered; a passkey signs in.
            try await page.navigate(try authorize(["acr_values": "aal2", "state": "st-3"]))
            try await page.waitUntil(
                "document.querySelector('#sign-in-title').textContent === 'Sign in to The Shop'", "the site's name")
            #expect(try await !page.isVisible("#tab-password"))
            #expect(try await page.text("#provider-context-text").contains("passkey"))
            try await page.screenshot("provider-05-aal2")
            try await page.click("#tab-passkey")
            try await page.type("#passkey-username", "ana")
            try await page.click("#passkey-named")
            let strong = try await landedParameters()
            #expect(strong["state"] == "st-3" && strong["code"] != nil, "\(strong)")

            // Cancel: the site hears access_denied.
            try await page.navigate(try authorize(["prompt": "login", "state": "st-4"]))
            try await page.waitUntilVisible("#provider-cancel")
            try await page.click("#provider-cancel")
            let cancelled = try await landedParameters()
            #expect(cancelled["error"] == "access_denied" && cancelled["state"] == "st-4", "\(cancelled)")

            // Logout without an ID token hint (any page can send the browser there) only asks; the page's plain
            // form, under its script-free Content-Security-Policy, signs out when the user says so.
            let heading = "document.querySelector('h1')?.textContent"
            try await page.send("Page.navigate", ["url": .string(issuer + "/oauth2/logout")])
            try await page.waitUntil("\(heading) === 'Sign out of Touchstone?'", "the question")
            try await page.send("Page.navigate", ["url": .string(try authorize(["state": "st-5"]).absoluteString)])
            #expect(try await landedParameters()["code"] != nil, "asking ended nothing")
            try await page.send("Page.navigate", ["url": .string(issuer + "/oauth2/logout")])
            try await page.waitUntil("\(heading) === 'Sign out of Touchstone?'", "the question")
            try await page.screenshot("provider-06-sign-out")
            try await page.click("button[type=submit]")
            try await page.waitUntil("\(heading) === 'You are signed out'", "the signed-out page")
            #expect(try await page.evaluate("location.pathname").string == "/oauth2/logout/confirm")
            // The provider session is over: the site's next request gets the sign-in page.
            try await page.navigate(try authorize(["state": "st-6"]))
            try await page.waitUntil(
                "document.querySelector('#sign-in-title').textContent === 'Sign in to The Shop'", "the sign-in page")
        }
    }

    /// The page's headers for the provider: its own window (no cross-origin opener) and only passkeys among the
    /// browser's powerful features.
    @Test("the page opts out of cross-origin openers and of every feature but passkeys")
    func pageHeaders() async throws {
        try await withServer(atLocalhost: true) { _, client in
            let page = try await client.get("/")
            #expect(page.headers["cross-origin-opener-policy"] == "same-origin", "\(page.headers)")
            let permissions = try #require(page.headers["permissions-policy"])
            #expect(permissions.contains("publickey-credentials-get=(self)"))
            #expect(permissions.contains("publickey-credentials-create=(self)"))
            #expect(permissions.contains("camera=()"))
        }
    }
}
