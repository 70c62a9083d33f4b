import Foundation
import Testing
import TouchstoneProtocol
import TouchstoneTestSupport

extension WebPageTests {
    /// The account area: recovery codes created behind a step-up, shown once and offered as a text file; the live
    /// sessions, of which another is signed out; the account's security notices.
    @Test("recovery codes behind a step-up, another session signed out, and the notices, all on the page")
    func recoveryCodesAndSessions() async throws {
        try await BrowserHarness.run { harness in
            let page = harness.page
            let phone = try await enrolPhone(harness, username: "eve")
            // Another sign-in of Eve's elsewhere (a password session, as another browser would have).
            let elsewhere = try await harness.passwordSession("eve")

            let number = try await requestApproval(page, username: "eve")
            let item = try await webLoginItem(harness, phone)
            try await harness.device(phone, ["approve", item.id, "--number", "\(number)", "--verifier", "match"])
            try await page.waitUntilVisible("#view-account")
            try await page.waitForAccountLists()
            try await page.waitUntil("document.querySelector('#recovery-remaining').textContent !== ''", "the code count")
            #expect(try await page.text("#recovery-remaining") == "You have no unused recovery codes.")

            // Recovery codes, behind a step-up.
            try await page.click("#create-recovery-codes")
            try await page.waitUntil("document.querySelector('#dialog-remove').open", "the confirmation dialog")
            #expect(try await page.text("#remove-title") == "Create new recovery codes?")
            #expect(try await page.isVisible("#remove-step-up"))
            try await page.type("#remove-password", BrowserHarness.password)
            try await page.click("#remove-submit")
            try await page.waitUntilVisible("#recovery-codes")
            let codes = try await page.evaluate(
                "[...document.querySelectorAll('#recovery-code-list li')].map(e => e.textContent)"
            ).array?.compactMap(\.string) ?? []
            #expect(codes.count == 10 && Set(codes).count == 10, "\(codes)")
            #expect(codes.allSatisfy { $0.wholeMatch(of: /[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}/) != nil }, "\(codes)")
            #expect(try await page.text("#recovery-remaining") == "10 unused recovery codes left.")
            try await page.screenshot("30-recovery-codes")

            // Download as text: the file holds every code.
            try await page.evaluate(
                """
                (() => { window.downloaded = []; const make = URL.createObjectURL;
                  URL.createObjectURL = (blob) => { window.downloaded.push(blob); return make(blob); }; })()
                """)
            try await page.click("#download-recovery-codes")
            try await page.waitUntil("window.downloaded.length === 1", "the download")
            let file = try await page.evaluate("window.downloaded[0].text()").string ?? ""
            #expect(codes.allSatisfy(file.contains), "\(file)")
            #expect(try await page.isVisible("#copy-recovery-codes"))
            // Shown once: hidden, they are gone from the page.
            try await page.click("#hide-recovery-codes")
            #expect(try await !page.isVisible("#recovery-codes"))
            #expect(try await page.evaluate("document.querySelectorAll('#recovery-code-list li').length") == .number(0))

            // The codes are the server's: one lets a new phone join without the first one's approval.
            let newPhone = try ScratchDirectory()
            try await harness.device(
                newPhone,
                ["--device-name", "Eve's new phone", "register", "--username", "eve", "--password-stdin", "--pin",
                 "482915", "--verifier", "match", "--recovery-code", codes[0]],
                input: BrowserHarness.password + "\n")

            // Sessions: the other sign-in is listed and signed out (the step-up still holds).
            let elsewhereId = try #require(try await sessionId(of: elsewhere))
            try await page.waitUntil(
                "document.querySelector('#session-list [data-id=\(BrowserPage.quoted(elsewhereId))]') !== null",
                "the other session in the list")
            #expect(try await page.text("#session-list").contains("This session"))
            try await page.click("#session-list [data-id=\(BrowserPage.quoted(elsewhereId))] .item-remove")
            try await page.waitUntil("document.querySelector('#dialog-remove').open", "the sign-out dialog")
            #expect(try await page.text("#remove-title") == "Sign out this session?")
            #expect(try await !page.isVisible("#remove-step-up"))
            try await page.click("#remove-submit")
            try await page.waitUntil("!document.querySelector('#dialog-remove').open", "the dialog to close")
            try await page.waitUntil(
                "document.querySelector('#session-list [data-id=\(BrowserPage.quoted(elsewhereId))]') === null",
                "the other session to leave the list")
            #expect(try await page.text("#toast") == "That session is signed out.")
            let refused = try await harness.client.get(
                "/v1/account", headers: ["Authorization": "Bearer \(elsewhere.accessToken)"])
            #expect(refused.status == 401, "\(refused)")

            // The notices the account has had (the page reloads them after each change it makes).
            try await page.waitUntil(
                "[...document.querySelectorAll('#notice-list li')].some(e => e.dataset.event === 'sessions_ended')",
                "the sessions_ended notice")
            let events = try await page.evaluate(
                "[...document.querySelectorAll('#notice-list li')].map(e => e.dataset.event)"
            ).array?.compactMap(\.string) ?? []
            #expect(Set(events).isSuperset(of: ["recovery_codes_created", "recovery_code_used", "device_added", "sessions_ended"]), "\(events)")
            #expect(try await page.text("#notice-list").contains("A recovery code was used to add Eve's new phone."))
            try await page.screenshot("31-sessions-and-notices")
            expectNoPageProblems(page)
        }
    }

    /// The `sid` of a session's access token.
    private func sessionId(of session: Session) async throws -> String? {
        let parts = session.accessToken.split(separator: ".")
        guard parts.count == 3, let payload = Base64URL.decode(String(parts[1])) else { return nil }
        return (try JSONSerialization.jsonObject(with: payload) as? [String: Any])?["sid"] as? String
    }
}
