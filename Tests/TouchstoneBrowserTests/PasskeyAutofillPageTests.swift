import Testing

extension WebPageTests {
    /// Passkeys in the username field's autofill (conditional mediation): the page asks for one as it opens, without
    /// a click. The virtual authenticator picks its passkey at once, as a person picking it from the autofill list.
    @Test("the page offers passkeys in autofill as it opens")
    func passkeyAutofill() async throws {
        try await BrowserHarness.run(passkeyAutofill: true) { harness in
            let page = harness.page
            #expect(try await page.evaluate("document.querySelector('#passkey-username').autocomplete").string
                == "username webauthn")
            // No passkey yet: the request waits, and the page works as usual.
            try await page.signUp("ana", password: BrowserHarness.password)
            try await page.waitForAccountLists()
            try await page.addPasskey(named: "Laptop")
            try await page.signOut()

            // A new page: the autofill request is answered with the passkey, and the user is signed in.
            try await page.send("Page.navigate", ["url": .string(harness.server.issuerURL.absoluteString)])
            try await page.waitUntilVisible("#view-account")
            try await page.waitUntil(
                "document.querySelector('#session-method').textContent === 'Passkey'", "a passkey session")
            let options = try await page.postedBodies(to: "/v1/webauthn/authentication/options")
            #expect(options.last == "{}", "a usernameless request: \(options)")
            expectNoPageProblems(page)
        }
    }
}
