import Foundation
import Testing
import TouchstoneClient
import TouchstoneProtocol

@testable import TouchstoneDomain
@testable import TouchstoneHTTP
@testable import TouchstoneServer
@testable import TouchstoneStorage

/// Story 13: deregistration (the server revokes, the SDK wipes) and a local reset.
@Suite("Deregistration and reset")
struct DeregistrationTests {
    @Test("deregister revokes the device on the server, then wipes its keys and sessions here")
    func deregister() async throws {
        try await LiveServer.run { server in
            let profile = server.profile()
            let client = server.client(profile)
            let registered = try await server.register(client)
            try await client.deregister()
            #expect(try await server.device(registered.deviceId).revokedAt != nil)
            #expect(try await server.sessionRecord(registered).revokedAt != nil)
            #expect(try await client.status().registered == false)
            #expect(profile.credentialFiles.isEmpty)
            await expectError(.notRegistered) { try await client.login(prompt: "Log in") }
        }
    }

    @Test("deregister on an empty profile: notRegistered")
    func deregisterNotRegistered() async throws {
        try await LiveServer.run { server in
            let client = server.client(server.profile())
            await expectError(.notRegistered) { try await client.deregister() }
        }
    }

    @Test("deregister without a session: reauthenticationRequired, nothing wiped (the server must be told first)")
    func deregisterWithoutSession() async throws {
        try await LiveServer.run { server in
            let profile = server.profile()
            let client = server.client(profile)
            let registered = try await server.register(client)
            try await client.logout()
            await expectError(.reauthenticationRequired) { try await client.deregister() }
            #expect(try await client.status().registered)
            #expect(try await server.device(registered.deviceId).revokedAt == nil)
        }
    }

    @Test(
        "deregister of a device an administrator already revoked still wipes it here",
        )
    func deregisterRevokedDevice() async throws {
        try await LiveServer.run { server in
            let profile = server.profile()
            let client = server.client(profile)
            let registered = try await server.register(client)
            let deviceId = try #require(registered.deviceId)
            #expect(try await server.store.revokeDevice(id: deviceId, reason: "admin", at: Date(), notices: []))
            try await client.deregister()
            #expect(try await client.status().registered == false)
            #expect(profile.credentialFiles.isEmpty)
        }
    }

    @Test("reset forgets the registration here only: the server's device stays active")
    func reset() async throws {
        try await LiveServer.run { server in
            let profile = server.profile()
            let transport = server.recorder()
            let client = server.client(profile, transport: transport)
            let registered = try await server.register(client)
            let sent = transport.requests.count
            try await client.reset()
            #expect(transport.requests.count == sent)
            #expect(try await client.status().registered == false)
            #expect(profile.credentialFiles.isEmpty)
            #expect(try await server.device(registered.deviceId).revokedAt == nil)
            await expectError(.notRegistered) { try await client.login(pin: LiveServer.pin) }
        }
    }

    @Test("after a reset the same device registering again is a new device: without the old keys it needs approval")
    func registerAfterReset() async throws {
        try await LiveServer.run { server in
            let profile = server.profile()
            let client = server.client(profile)
            let registered = try await server.register(client)
            try await client.reset()
            let again = PendingRegistration(client, on: profile)
            #expect(await again.waitingForApproval() != nil, "the same device description proves nothing")
            #expect(try await server.device(registered.deviceId).isActive)
            again.task.cancel()
            await expectError(.userCancelled) { try await again.session }
            #expect(profile.credentialFiles.isEmpty)
        }
    }

    @Test("reset on an empty profile does nothing and sends nothing")
    func resetEmpty() async throws {
        try await LiveServer.run { server in
            let profile = server.profile()
            let transport = server.recorder()
            let client = server.client(profile, transport: transport)
            try await client.reset()
            #expect(try await client.status().registered == false)
            #expect(profile.files.isEmpty)
            #expect(transport.requests.isEmpty)
        }
    }
}
