import Foundation

/// What a person does on the Touchstone page, step by step, each step waiting for the page's answer.
extension BrowserPage {
    /// Creates an account on the sign-up view; the page then signs in with the password.
    func signUp(_ username: String, password: String) async throws {
        if try await !isVisible("#view-sign-up") {
            try await click("#go-sign-up")
            try await waitUntilVisible("#view-sign-up")
        }
        try await type("#sign-up-username", username)
        try await type("#sign-up-password", password)
        try await click("#sign-up-submit")
        try await waitUntilVisible("#view-account")
    }

    /// Signs in on the password tab.
    func signInWithPassword(_ username: String, password: String) async throws {
        try await click("#tab-password")
        try await type("#password-username", username)
        try await type("#password-password", password)
        try await click("#password-submit")
        try await waitUntilVisible("#view-account")
    }

    /// Signs in with a passkey: by username, or usernameless (discoverable) when `username` is nil.
    func signInWithPasskey(_ username: String?) async throws {
        try await click("#tab-passkey")
        if let username {
            try await type("#passkey-username", username)
            try await click("#passkey-named")
        } else {
            try await click("#passkey-any")
        }
        try await waitUntilVisible("#view-account")
    }

    /// Adds a passkey from the account page and waits until the list shows it.
    func addPasskey(named name: String, screenshot: String? = nil) async throws {
        try await waitUntil("document.querySelector('#passkey-list') !== null", "the passkey list")
        try await click("#add-passkey")
        try await waitUntilVisible("#form-add-passkey")
        try await type("#passkey-name", name)
        if let screenshot { try await self.screenshot(screenshot) }
        try await click("#add-passkey-submit")
        try await waitUntil(
            "[...document.querySelectorAll('#passkey-list .item-name')].some(e => e.textContent === \(Self.quoted(name)))",
            "the passkey \(name) in the list")
    }

    /// Signs out from the account page and waits until the server has ended the session (the page says so).
    func signOut() async throws {
        try await click("#sign-out")
        try await waitUntilVisible("#view-sign-in")
        try await waitUntil(
            "document.querySelector('#toast').textContent === 'You are signed out.'", "the signed-out message")
    }

    /// The names the list with id `list` shows (`passkey-list`, `device-list`).
    func names(in list: String) async throws -> [String] {
        try await evaluate("[...document.querySelectorAll('#\(list) .item-name')].map(e => e.textContent)").array?
            .compactMap(\.string) ?? []
    }

    /// Waits until the account page has loaded both lists: items, the empty note, or the list's error.
    func waitForAccountLists() async throws {
        for list in ["passkey", "device"] {
            try await waitUntil(
                "document.querySelectorAll('#\(list)-list .item').length > 0 || \(Self.visibleScript("#\(list)s-empty"))"
                    + " || \(Self.visibleScript("#\(list)s-error"))",
                "the \(list) list to load")
        }
    }

    /// Removes the first item of `list` through the dialog, confirming with `password` when the page asks for it.
    func removeFirstItem(in list: String, password: String) async throws {
        try await click("#\(list) .item-remove")
        try await waitUntil("document.querySelector('#dialog-remove').open", "the removal dialog")
        if try await isVisible("#remove-step-up") {
            try await type("#remove-password", password)
        }
        try await click("#remove-submit")
        try await waitUntil("!document.querySelector('#dialog-remove').open", "the removal dialog to close")
    }

    /// The JavaScript that tells whether `selector` is shown.
    static func visibleScript(_ selector: String) -> String {
        "(() => { const e = document.querySelector(\(quoted(selector))); return !!e && e.checkVisibility(); })()"
    }
}
