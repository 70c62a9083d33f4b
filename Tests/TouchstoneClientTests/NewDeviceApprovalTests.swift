import Foundation
import Testing
import TouchstoneClient
import TouchstoneProtocol

@testable import TouchstoneDomain
@testable import TouchstoneHTTP
@testable import TouchstoneServer
@testable import TouchstoneStorage

/// Story 2: a new device of a user who already has one waits until an existing device approves it.
@Suite("New-device approval")
struct NewDeviceApprovalTests {
    @Test("the new device waits showing a number; the old one picks it among three in its inbox; the new one has its own keys")
    func approved() async throws {
        try await LiveServer.run { server in
            let first = server.client(server.profile())
            let firstSession = try await server.register(first)
            let second = PendingRegistration(on: server)
            let pending = try #require(await second.waitingForApproval())
            #expect(pending.status == .approvalPending)
            #expect(try await second.client.status().registered == false)
            let item = try await nextInboxItem(first, kind: .enrollment)
            #expect(item.id == pending.enrollmentId)
            #expect(item.name == "Second Device")
            #expect(item.model?.hasPrefix("Linux") == true)
            #expect(item.clientId == LiveServer.demoApp)
            #expect(item.publisher == "demo")
            let numbers = try #require(item.numbers)
            #expect(numbers.count == 3, "\(numbers)")
            #expect(numbers.contains(pending.number), "\(pending.number) among \(numbers)")
            #expect(
                try await first.approve(item, prompt: "Approve the new device", number: pending.number) == .approved)
            let session = try await second.session
            #expect(session.userId == firstSession.userId)
            #expect(session.deviceId != firstSession.deviceId)
            #expect(try await second.client.status().deviceId == session.deviceId)
            #expect(try await second.client.status().biometric)
            #expect(try await second.client.login(prompt: "Log in").deviceId == session.deviceId)
            #expect(try await second.client.login(pin: LiveServer.pin).amr == ["pin"])
            let active = try await server.store.devices(userId: session.userId).filter(\.isActive).map(\.id)
            #expect(Set(active) == Set([firstSession.deviceId, session.deviceId].compactMap { $0 }))
        }
    }

    @Test("approving with the PIN, and through the PIN fallback, works as for login", arguments: [false, true])
    func approvedWithPIN(throughFallback: Bool) async throws {
        try await LiveServer.run { server in
            let profile = server.profile()
            try await server.register(server.client(profile))
            let second = PendingRegistration(on: server)
            let pinPrompt = PINPromptRecorder(answering: LiveServer.pin)
            let first = server.client(profile, verifier: ScriptedVerifier(.lockout))
            let item = try await nextInboxItem(first, kind: .enrollment)
            let number = try await second.number()
            let status =
                throughFallback
                ? try await first.approve(item, prompt: "Approve", number: number, fallback: pinPrompt.prompt)
                : try await first.approve(item, pin: LiveServer.pin, number: number)
            #expect(status == .approved)
            #expect(pinPrompt.reasons == (throughFallback ? [.biometryLockout] : []))
            #expect(try await second.session.amr.isEmpty == false)
            #expect(try await second.client.status().registered)
        }
    }

    @Test("the old device denies: approvalDenied, and nothing is kept on the new one", arguments: [false, true])
    func denied(withPIN: Bool) async throws {
        try await LiveServer.run { server in
            let first = server.client(server.profile())
            let firstSession = try await server.register(first)
            let second = PendingRegistration(on: server)
            let item = try await nextInboxItem(first, kind: .enrollment)
            let status =
                withPIN
                ? try await first.deny(item, pin: LiveServer.pin) : try await first.deny(item, prompt: "Deny")
            #expect(status == .denied)
            await expectError(.approvalDenied) { try await second.session }
            #expect(try await second.client.status().registered == false)
            #expect(second.profile.credentialFiles.isEmpty)
            let active = try await server.store.devices(userId: firstSession.userId).filter(\.isActive)
            #expect(active.map(\.id) == [firstSession.deviceId].compactMap { $0 })
        }
    }

    @Test("approving a new device without its number: numberRequired, nothing sent; with a wrong number it is denied")
    func wrongNumberDenies() async throws {
        try await LiveServer.run { server in
            let profile = server.profile()
            let firstSession = try await server.register(server.client(profile))
            let second = PendingRegistration(on: server)
            let number = try await second.number()
            let transport = server.recorder()
            let first = server.client(profile, transport: transport)
            let item = try await nextInboxItem(first, kind: .enrollment)
            let sent = transport.requests.count
            await expectError(.numberRequired) { try await first.approve(item, prompt: "Approve") }
            await expectError(.numberRequired) { try await first.approve(item, pin: LiveServer.pin) }
            #expect(transport.requests.count == sent)
            let wrong = try #require(item.numbers?.first { $0 != number })
            #expect(try await first.approve(item, prompt: "Approve", number: wrong) == .denied)
            await expectError(.approvalDenied) { try await second.session }
            #expect(try await second.client.status().registered == false)
            #expect(second.profile.credentialFiles.isEmpty)
            let active = try await server.store.devices(userId: firstSession.userId).filter(\.isActive)
            #expect(active.map(\.id) == [firstSession.deviceId].compactMap { $0 })
        }
    }

    @Test("nobody approves in time: approvalExpired, and nothing is kept")
    func expired() async throws {
        try await LiveServer.run { server in
            try await server.register(server.client(server.profile()))
            let second = PendingRegistration(on: server) { pending in
                server.clock.advance(by: pending.expiresAt.timeIntervalSince(server.clock.now()) + 1)
            }
            await expectError(.approvalExpired) { try await second.session }
            #expect(second.profile.credentialFiles.isEmpty)
        }
    }

    @Test("cancelling the wait: userCancelled, and nothing is kept")
    func cancelled() async throws {
        try await LiveServer.run { server in
            try await server.register(server.client(server.profile()))
            let second = PendingRegistration(on: server)
            #expect(await second.waitingForApproval() != nil)
            second.task.cancel()
            await expectError(.userCancelled) { try await second.session }
            #expect(try await second.client.status().registered == false)
            #expect(second.profile.credentialFiles.isEmpty)
        }
    }

    @Test("a fingerprint that does not match on the old device: biometryFailed, nothing sent, still pending")
    func approvalNoMatch() async throws {
        try await LiveServer.run { server in
            let profile = server.profile()
            try await server.register(server.client(profile))
            let second = PendingRegistration(on: server)
            let first = server.client(profile)
            let item = try await nextInboxItem(first, kind: .enrollment)
            let transport = server.recorder()
            let failing = server.client(profile, verifier: ScriptedVerifier(.nomatch), transport: transport)
            let number = try await second.number()
            await expectError(.biometryFailed) { try await failing.approve(item, prompt: "Approve", number: number) }
            #expect(transport.requests.isEmpty)
            #expect(try await first.approve(item, prompt: "Approve", number: number) == .approved)
            #expect(try await second.session.userId.isEmpty == false)
        }
    }

    @Test("a wrong PIN on the old device counts like a login's, and the SDK does not ask again")
    func approvalWrongPIN() async throws {
        try await LiveServer.run { server in
            let profile = server.profile()
            let registered = try await server.register(server.client(profile))
            let second = PendingRegistration(on: server)
            let pinPrompt = PINPromptRecorder(answering: LiveServer.wrongPIN)
            let first = server.client(profile, verifier: ScriptedVerifier(.fallback))
            let item = try await nextInboxItem(first, kind: .enrollment)
            let number = try await second.number()
            let error = await expectError(.pinIncorrect) {
                try await first.approve(item, prompt: "Approve", number: number, fallback: pinPrompt.prompt)
            }
            #expect(error?.attemptsRemaining == 4)
            #expect(pinPrompt.reasons == [.userFallback])
            #expect(try await server.device(registered.deviceId).pinFailures == 1)
            #expect(try await first.approve(item, pin: LiveServer.pin, number: number) == .approved)
            #expect(try await second.session.deviceId != nil)
            #expect(try await second.client.status().registered)
        }
    }

    @Test("a malformed PIN on the old device: invalidPIN, nothing but the policy sent")
    func approvalMalformedPIN() async throws {
        try await LiveServer.run { server in
            let profile = server.profile()
            try await server.register(server.client(profile))
            let second = PendingRegistration(on: server)
            let first = server.client(profile)
            let item = try await nextInboxItem(first, kind: .enrollment)
            let transport = server.recorder()
            let approving = server.client(profile, transport: transport)
            let number = try await second.number()
            await expectError(.invalidPIN) { try await approving.approve(item, pin: "1111", number: number) }
            #expect(transport.requestsBesidesPolicy.isEmpty)
            #expect(try await second.client.status().registered == false)
        }
    }

    @Test("an opted-out device approves with the PIN, asked with reason optedOut; without a prompt: optedOut")
    func approvalOptedOut() async throws {
        try await LiveServer.run { server in
            let profile = server.profile()
            let first = server.client(profile)
            try await server.register(first)
            try await first.optOut()
            let second = PendingRegistration(on: server)
            let item = try await nextInboxItem(first, kind: .enrollment)
            let number = try await second.number()
            await expectError(.optedOut) { try await first.approve(item, prompt: "Approve", number: number) }
            let pinPrompt = PINPromptRecorder(answering: LiveServer.pin)
            #expect(
                try await first.approve(item, prompt: "Approve", number: number, fallback: pinPrompt.prompt) == .approved)
            #expect(pinPrompt.reasons == [.optedOut])
            #expect(try await second.session.deviceId != nil)
        }
    }

    @Test("the PIN prompt cancelled while approving: userCancelled, still pending")
    func approvalPromptCancelled() async throws {
        try await LiveServer.run { server in
            let profile = server.profile()
            try await server.register(server.client(profile))
            let second = PendingRegistration(on: server)
            let first = server.client(profile, verifier: ScriptedVerifier(.lockout))
            let item = try await nextInboxItem(first, kind: .enrollment)
            let number = try await second.number()
            let pinPrompt = PINPromptRecorder(answering: nil)
            await expectError(.userCancelled) {
                try await first.approve(item, prompt: "Approve", number: number, fallback: pinPrompt.prompt)
            }
            await expectError(.biometryLockout) { try await first.approve(item, prompt: "Approve", number: number) }
            #expect(try await first.deny(item, pin: LiveServer.pin) == .denied)
            await expectError(.approvalDenied) { try await second.session }
        }
    }

    @Test("a decision on an item already decided: server(already_decided)")
    func alreadyDecided() async throws {
        try await LiveServer.run { server in
            let first = server.client(server.profile())
            try await server.register(first)
            let second = PendingRegistration(on: server)
            let item = try await nextInboxItem(first, kind: .enrollment)
            #expect(try await first.approve(item, prompt: "Approve", number: try await second.number()) == .approved)
            _ = try await second.session
            await expectError(.server, serverCode: .alreadyDecided) { try await first.deny(item, prompt: "Deny") }
        }
    }

    @Test("a compromised device cannot decide: deviceCompromised, nothing sent")
    func compromisedApprover() async throws {
        try await LiveServer.run { server in
            let profile = server.profile()
            try await server.register(server.client(profile))
            let second = PendingRegistration(on: server)
            let item = try await nextInboxItem(server.client(profile), kind: .enrollment)
            let transport = server.recorder()
            let compromised = server.client(profile, compromised: true, transport: transport)
            let number = try await second.number()
            await expectError(.deviceCompromised) {
                try await compromised.approve(item, prompt: "Approve", number: number)
            }
            await expectError(.deviceCompromised) { try await compromised.deny(item, pin: LiveServer.pin) }
            #expect(transport.requests.isEmpty)
            #expect(try await second.client.status().registered == false)
        }
    }

    @Test("the inbox of an unregistered profile: notRegistered")
    func inboxNotRegistered() async throws {
        try await LiveServer.run { server in
            let client = server.client(server.profile())
            await expectError(.notRegistered) { try await client.pendingRequests() }
        }
    }

    @Test("an empty inbox answers at once with no items")
    func emptyInbox() async throws {
        try await LiveServer.run { server in
            let client = server.client(server.profile())
            try await server.register(client)
            #expect(try await client.pendingRequests().isEmpty)
        }
    }
}
