import Foundation
import Testing
import TouchstoneTestSupport

extension WebPageTests {
    /// The page schedules a refresh a minute before the access token expires; the test fires that timer early (it
    /// records the page's timers from before the page loads) and checks that the next call carries the new token.
    @Test("the access token is refreshed silently before it expires")
    func silentRefresh() async throws {
        try await BrowserHarness.run { harness in
            let page = harness.page
            try await harness.createAccount("flo")
            try await page.send(
                "Page.addScriptToEvaluateOnNewDocument",
                [
                    "source": """
                    window.__timers = [];
                    const originalSetTimeout = window.setTimeout;
                    window.setTimeout = (callback, delay, ...rest) => {
                      window.__timers.push({ callback, delay });
                      return originalSetTimeout(callback, delay, ...rest);
                    };
                    """
                ])
            try await page.navigate(harness.server.issuerURL)
            try await page.signInWithPassword("flo", password: BrowserHarness.password)
            try await page.waitForAccountLists()

            // expiresIn is 600 s: the refresh is due at 480 s (80 %, which is earlier than a minute before expiry).
            let delays = try await page.evaluate("window.__timers.map(t => t.delay).filter(d => d > 60000)")
            #expect(delays == [480_000], "one refresh timer: \(delays)")
            try await page.evaluate("window.__timers.find(t => t.delay === 480000).callback()")
            let refreshed = try await responseBody(page, "/v1/sessions/refresh")
            let fresh = try #require(refreshed["accessToken"]?.string, "refresh answer: \(refreshed)")
            let signIn = try await responseBody(page, "/v1/sessions/password")
            #expect(signIn["accessToken"]?.string != fresh)
            let posted = try #require(try await page.postedBodies(to: "/v1/sessions/refresh").first)
            #expect(
                try JSONValue(parsing: Data(posted.utf8))["refreshToken"] == signIn["refreshToken"],
                "the refresh sends the sign-in's refresh token")

            try await page.signOut()
            let bearer = page.connection.events.last { event in
                event.method == "Network.requestWillBeSent" && event.params["request"]?["method"]?.string == "DELETE"
            }?.params["request"]?["headers"]?["Authorization"]?.string
            #expect(bearer == "Bearer \(fresh)", "signing out uses the refreshed token")
            expectNoPageProblems(page)
        }
    }
}

/// The JSON body of the page's latest answer from a URL ending with `pathSuffix`, once it has arrived.
func responseBody(_ page: BrowserPage, _ pathSuffix: String) async throws -> JSONValue {
    let deadline = Date().addingTimeInterval(BrowserPage.patience)
    while Date() < deadline {
        let response = page.connection.events.last { event in
            event.sessionId == page.sessionId && event.method == "Network.responseReceived"
                && event.params["response"]?["url"]?.string?.hasSuffix(pathSuffix) == true
        }
        if let requestId = response?.params["requestId"],
            page.connection.events.contains(where: {
                $0.method == "Network.loadingFinished" && $0.params["requestId"] == requestId
            })
        {
            let body = try await page.send("Network.getResponseBody", ["requestId": requestId])
            return try JSONValue(parsing: Data((body["body"]?.string ?? "").utf8))
        }
        try await Task.sleep(for: .milliseconds(100))
    }
    throw BrowserPage.Failure(description: "no answer from \(pathSuffix) within \(Int(BrowserPage.patience)) s")
}
