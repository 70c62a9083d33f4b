import Foundation
import Testing
import TouchstoneProtocol
import TouchstoneTestSupport

extension WebPageTests {
    /// The page shows a number, the phone (`touchstone device`) is offered three and picks it; the page signs in with
    /// an aal2 session, lists the phone, and removes it after a step-up.
    @Test("approving on the phone signs the page in; removing the phone needs a step-up")
    func deviceApprovalAndRemoval() async throws {
        try await BrowserHarness.run { harness in
            let page = harness.page
            let phone = try await enrolPhone(harness, username: "cy")

            let number = try await requestApproval(page, username: "cy")
            try await page.screenshot("20-phone-approval-waiting")
            let item = try await webLoginItem(harness, phone)
            #expect(item.numbers?.contains(number) == true, "the phone offers the page's number: \(item)")
            #expect(item.numbers?.count == 3)
            try await harness.device(phone, ["approve", item.id, "--number", "\(number)", "--verifier", "match"])

            try await page.waitUntilVisible("#view-account")
            #expect(try await page.text("#session-method") == "Approved on your phone (fingerprint)")
            #expect(try await page.text("#session-assurance").contains("aal2"))
            try await page.waitForAccountLists()
            #expect(try await page.names(in: "device-list") == ["Cy's phone"])
            try await page.screenshot("21-phone-approval-signed-in")

            try await page.removeFirstItem(in: "device-list", password: BrowserHarness.password)
            // The page's session was approved by that phone, so it ends with it (PROTOCOL "Device inbox").
            try await page.waitUntilVisible("#view-sign-in")
            #expect(try await page.text("#toast") == "Device “Cy's phone” removed.")
            #expect(try await page.text("#banner-text").contains("approved on “Cy's phone”, so it ended with it"))
            try await page.screenshot("22-device-removed")
            let devices = try await harness.server.admin(["devices", "--json"])
            let listed = try #require(try JSONValue(parsing: Data(devices.stdout.utf8))["devices"]?.array)
            #expect(listed.count == 1)
            #expect(listed.first?["revokedAt"] != nil && listed.first?["revokedAt"] != .null, "revoked: \(devices)")
            expectNoPageProblems(page)
        }
    }

    /// A denial on the phone ends the wait with a clear message and a way to try again.
    @Test("a denial on the phone is shown")
    func deviceDenial() async throws {
        try await BrowserHarness.run { harness in
            let page = harness.page
            let phone = try await enrolPhone(harness, username: "di")
            _ = try await requestApproval(page, username: "di")
            let item = try await webLoginItem(harness, phone)
            try await harness.device(phone, ["deny", item.id, "--verifier", "match"])
            try await page.waitUntilVisible("#approval-ended")
            #expect(try await page.text("#approval-message").hasPrefix("The sign-in was denied on your phone"))
            #expect(try await page.isVisible("#approval-retry"))
            #expect(try await !page.isVisible("#view-account"))
            try await page.screenshot("23-phone-approval-denied")
            try await page.click("#approval-cancel")
            try await page.waitUntilVisible("#view-sign-in")
            #expect(try await page.isVisible("#panel-device"))
            expectNoPageProblems(page)
        }
    }
}

/// Creates the account and registers a `touchstone device` profile for it with a scripted fingerprint.
func enrolPhone(_ harness: BrowserHarness, username: String) async throws -> ScratchDirectory {
    try await harness.createAccount(username)
    let phone = try ScratchDirectory()
    let name = username.prefix(1).uppercased() + username.dropFirst() + "'s phone"
    try await harness.device(
        phone,
        ["--device-name", name, "register", "--username", username, "--password-stdin", "--pin", "482915",
         "--verifier", "match"], input: BrowserHarness.password + "\n")
    return phone
}

/// Asks for a phone approval on the page and returns the number it shows.
func requestApproval(_ page: BrowserPage, username: String) async throws -> Int {
    try await page.click("#tab-device")
    try await page.type("#device-username", username)
    try await page.click("#device-submit")
    try await page.waitUntilVisible("#view-approval")
    try await page.waitUntil("/^[0-9]{2}$/.test(document.querySelector('#approval-number').textContent)", "the number")
    return try #require(Int(try await page.text("#approval-number")))
}

/// The web-login item in the phone's inbox (waiting for it to arrive).
func webLoginItem(_ harness: BrowserHarness, _ phone: ScratchDirectory) async throws -> InboxItem {
    let deadline = Date().addingTimeInterval(60)
    while Date() < deadline {
        let inbox = try await harness.device(phone, ["inbox", "--json", "--wait", "5"])
        if let item = try inbox.json(Inbox.self).items.first(where: { $0.kind == .webLogin }) { return item }
    }
    throw BrowserPage.Failure(description: "no web-login item reached the phone within 60 s")
}
