import Foundation
import Testing
import TouchstoneClient
import TouchstoneCrypto
import TouchstoneProtocol

@testable import TouchstoneDomain
@testable import TouchstoneHTTP
@testable import TouchstoneServer
@testable import TouchstoneStorage

/// Decisions on the other kinds of inbox items: a web login (number matching) and a transaction confirmation
/// (the approval commits to what was shown).
@Suite("Inbox decisions: web logins and confirmations")
struct InboxDecisionTests {
    // MARK: Web logins

    @Test("a web login approved with the browser's number signs the browser in with the device's amr")
    func webLoginApproved() async throws {
        try await LiveServer.run { server in
            let client = server.client(server.profile())
            let registered = try await server.register(client)
            let started = try await server.startWebLogin()
            let item = try await nextInboxItem(client, kind: .webLogin)
            #expect(item.id == started.webLoginId)
            let numbers = try #require(item.numbers)
            #expect(numbers.count == 3)
            #expect(numbers.contains(started.number))
            #expect(item.browser != nil)
            #expect(try await client.approve(item, prompt: "Sign in on the web?", number: started.number) == .approved)
            let poll = try await server.pollWebLogin(started)
            #expect(poll.status == .approved)
            #expect(poll.session?.amr == ["bio"])
            #expect(poll.session?.acr == "aal2")
            #expect(poll.session?.userId == registered.userId)
        }
    }

    @Test("approving a web login without picking a number: numberRequired, nothing sent")
    func webLoginNeedsNumber() async throws {
        try await LiveServer.run { server in
            let profile = server.profile()
            try await server.register(server.client(profile))
            let started = try await server.startWebLogin()
            let item = try await nextInboxItem(server.client(profile), kind: .webLogin)
            let verifier = StateVerifier()
            let transport = server.recorder()
            let client = server.client(profile, verifier: verifier, transport: transport)
            await expectError(.numberRequired) { try await client.approve(item, prompt: "Sign in on the web?") }
            await expectError(.numberRequired) { try await client.approve(item, pin: LiveServer.pin) }
            #expect(verifier.verifications == 0)
            #expect(transport.requests.isEmpty)
            #expect(try await server.pollWebLogin(started).status == .pending)
        }
    }

    @Test("approving a web login with another number than the browser's denies it")
    func webLoginWrongNumber() async throws {
        try await LiveServer.run { server in
            let client = server.client(server.profile())
            try await server.register(client)
            let started = try await server.startWebLogin()
            let item = try await nextInboxItem(client, kind: .webLogin)
            let wrong = try #require(item.numbers?.first { $0 != started.number })
            #expect(try await client.approve(item, pin: LiveServer.pin, number: wrong) == .denied)
            let poll = try await server.pollWebLogin(started)
            #expect(poll.status == .denied)
            #expect(poll.session == nil)
        }
    }

    @Test("a web login denied from the device: denied, and no number is needed to deny")
    func webLoginDenied() async throws {
        try await LiveServer.run { server in
            let client = server.client(server.profile())
            try await server.register(client)
            let started = try await server.startWebLogin()
            let item = try await nextInboxItem(client, kind: .webLogin)
            #expect(try await client.deny(item, prompt: "Sign in on the web?") == .denied)
            #expect(try await server.pollWebLogin(started).status == .denied)
        }
    }

    // MARK: Confirmations

    @Test("a confirmation approved with the fingerprint commits to the text, amount, currency and payee shown")
    func confirmationApproved() async throws {
        try await LiveServer.run { server in
            let client = server.client(server.profile())
            let registered = try await server.register(client)
            let key = try await server.createAPIKey()
            let created = try await server.createConfirmation(apiKey: key)
            let item = try await nextInboxItem(client, kind: .confirmation)
            #expect(item.id == created.confirmationId)
            #expect(item.text == "Pay €120.00 to ACME Ltd")
            #expect(item.amount == "120.00")
            #expect(item.currency == "EUR")
            #expect(item.payee == "ACME Ltd")
            #expect(try await client.approve(item, prompt: "Confirm money transfer") == .approved)
            let state = try await server.confirmation(created, apiKey: key)
            #expect(state.status == .approved)
            #expect(state.amr == ["bio"])
            #expect(state.deviceId == registered.deviceId)
            #expect(state.txn == TransactionHash.of(text: "Pay €120.00 to ACME Ltd", amount: "120.00", currency: "EUR", payee: "ACME Ltd"))
        }
    }

    @Test("a confirmation whose shown text differs from the relying service's: server(txn_mismatch), still pending")
    func confirmationTampered() async throws {
        try await LiveServer.run { server in
            let client = server.client(server.profile())
            try await server.register(client)
            let key = try await server.createAPIKey()
            let created = try await server.createConfirmation(apiKey: key)
            var item = try await nextInboxItem(client, kind: .confirmation)
            item.payee = "Mallory Ltd"
            await expectError(.server, serverCode: .txnMismatch) {
                try await client.approve(item, prompt: "Confirm money transfer")
            }
            #expect(try await server.confirmation(created, apiKey: key).status == .pending)
        }
    }

    @Test("a confirmation item missing what it confirms: transport, nothing verified or sent")
    func confirmationIncomplete() async throws {
        try await LiveServer.run { server in
            let profile = server.profile()
            try await server.register(server.client(profile))
            let key = try await server.createAPIKey()
            _ = try await server.createConfirmation(apiKey: key)
            var item = try await nextInboxItem(server.client(profile), kind: .confirmation)
            item.amount = nil
            let verifier = StateVerifier()
            let transport = server.recorder()
            let client = server.client(profile, verifier: verifier, transport: transport)
            await expectError(.transport) { try await client.approve(item, prompt: "Confirm money transfer") }
            #expect(verifier.verifications == 0)
            #expect(transport.requests.isEmpty)
        }
    }

    @Test("a confirmation denied with the PIN: denied, amr pin")
    func confirmationDenied() async throws {
        try await LiveServer.run { server in
            let client = server.client(server.profile())
            try await server.register(client)
            let key = try await server.createAPIKey()
            let created = try await server.createConfirmation(apiKey: key)
            let item = try await nextInboxItem(client, kind: .confirmation)
            #expect(try await client.deny(item, pin: LiveServer.pin) == .denied)
            let state = try await server.confirmation(created, apiKey: key)
            #expect(state.status == .denied)
            #expect(state.amr == ["pin"])
        }
    }
}
