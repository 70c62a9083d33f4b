import Foundation
import Testing
import TouchstoneTestSupport

extension WebPageTests {
    static let pagePolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
        + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    /// The page's own policy allows its files and nothing inline; every other answer keeps `default-src 'none'`.
    @Test("the page and its files carry the security headers; the HTML has no inline script or style")
    func securityHeaders() async throws {
        try await withServer { _, client in
            let page = try await client.get("/")
            #expect(page.status == 200)
            #expect(page.header("Content-Type") == "text/html; charset=utf-8")
            #expect(page.header("Content-Security-Policy") == Self.pagePolicy)
            #expect(page.header("X-Content-Type-Options") == "nosniff")
            #expect(page.header("Referrer-Policy") == "no-referrer")
            #expect(page.header("Set-Cookie") == nil)

            for (path, type) in [
                ("/app.js", "text/javascript; charset=utf-8"), ("/app.css", "text/css; charset=utf-8"),
                ("/icon.svg", "image/svg+xml"),
            ] {
                let file = try await client.get(path)
                #expect(file.status == 200, "\(path)")
                #expect(file.header("Content-Type") == type, "\(path)")
                #expect(file.header("X-Content-Type-Options") == "nosniff", "\(path)")
                #expect(file.header("Content-Security-Policy") == "default-src 'none'; frame-ancestors 'none'", "\(path)")
            }
            let api = try await client.get("/v1/devices")
            #expect(api.status == 401)
            #expect(api.header("Content-Security-Policy") == "default-src 'none'; frame-ancestors 'none'")

            let html = page.text
            let scripts = html.ranges(of: "<script").count
            #expect(scripts == 1)
            #expect(html.contains(#"<script type="module" src="/app.js"></script>"#))
            #expect(!html.contains("<style"))
            #expect(!html.contains(" style="))
            #expect(html.range(of: #"\son[a-z]+\s*="#, options: .regularExpression) == nil, "no inline handlers")
            #expect(html.range(of: #"(src|href)="(https?:)?//"#, options: .regularExpression) == nil, "no external files")
        }
    }

    /// Refusals of the server and of the browser, each shown in words, on a wide and on a phone-sized screen.
    @Test("errors are shown in words; the page fits a phone and dark mode")
    func errorsAndLayouts() async throws {
        try await BrowserHarness.run { harness in
            let page = harness.page
            try await harness.createAccount("ed")

            try await page.click("#tab-password")
            try await page.type("#password-username", "ed")
            try await page.type("#password-password", "wrong-password")
            try await page.click("#password-submit")
            try await page.waitUntilVisible("#password-form-error")
            #expect(
                try await page.text("#password-form-error")
                    == "That username and password do not match. Check both and try again.")
            #expect(try await page.evaluate("document.querySelector('#password-password').getAttribute('aria-invalid')") == "true")
            try await page.screenshot("30-error-wrong-password")

            try await page.click("#tab-passkey")
            try await page.type("#passkey-username", "ed")
            try await page.click("#passkey-named")
            try await page.waitUntilVisible("#passkey-username-error")
            #expect(try await page.text("#passkey-username-error").hasPrefix("No passkey was used"))
            try await page.screenshot("31-error-no-passkey")

            try await page.click("#go-sign-up")
            try await page.type("#sign-up-username", "ed")
            try await page.type("#sign-up-password", "short")
            try await page.click("#sign-up-submit")
            try await page.waitUntilVisible("#sign-up-error")
            #expect(try await page.text("#sign-up-error") == "Choose a password of 8 to 1024 characters.")
            try await page.type("#sign-up-password", BrowserHarness.password)
            try await page.click("#sign-up-submit")
            try await page.waitUntil(
                "document.querySelector('#sign-up-error').textContent.includes('taken')", "the taken-username message")
            #expect(try await page.text("#sign-up-error") == "That username is taken. Choose another one.")
            try await page.screenshot("32-error-username-taken")

            try await page.click("#go-sign-in")
            try await page.resize(width: 390, height: 844, mobile: true)
            try await page.screenshot("33-phone-sign-in")
            try await page.signInWithPassword("ed", password: BrowserHarness.password)
            try await page.waitForAccountLists()
            #expect(
                try await page.evaluate("document.documentElement.scrollWidth <= window.innerWidth") == .bool(true),
                "no sideways scrolling on a phone")
            try await page.screenshot("34-phone-account")

            try await page.resize(width: 1280, height: 900)
            try await page.send(
                "Emulation.setEmulatedMedia", ["features": [["name": "prefers-color-scheme", "value": "dark"]]])
            try await page.screenshot("35-dark-account")
            try await page.signOut()
            try await page.screenshot("36-dark-sign-in")
            expectNoPageProblems(page)
        }
    }
}
