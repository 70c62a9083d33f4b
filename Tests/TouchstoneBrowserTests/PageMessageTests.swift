import Testing

extension WebPageTests {
    /// The page has its own words for the codes of the endpoints it calls; any other refusal is shown with the title
    /// the server gave it, not a bare status. The page's own modules, loaded as the page loaded them.
    @Test("a refusal the page has no words for is shown with the server's title")
    func serverTitleFallback() async throws {
        try await BrowserHarness.run { harness in
            let page = harness.page
            let shown = try await page.evaluate(
                """
                Promise.all([import('/api.js'), import('/messages.js')]).then(([api, messages]) => [
                  messages.messageFor(new api.ApiError(503, 'temporarily_unavailable', 'The server is busy; try again in a moment.')),
                  messages.messageFor(new api.ApiError(401, 'invalid_credentials', 'The username or password is wrong.')),
                  messages.messageFor(new api.ApiError(502, 'http_502', null)),
                ])
                """)
            #expect(
                shown == [
                    "The server is busy; try again in a moment.",
                    "That username and password do not match. Check both and try again.",
                    "The request failed (502 http_502). Try again.",
                ])
            expectNoPageProblems(page)
        }
    }
}
