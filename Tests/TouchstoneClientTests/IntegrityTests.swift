import Foundation
import Testing
import TouchstoneClient
import TouchstoneProtocol

@testable import TouchstoneDomain
@testable import TouchstoneHTTP
@testable import TouchstoneServer
@testable import TouchstoneStorage

/// Story 1: the integrity gate, on its own and in front of the flows that yield tokens.
@Suite("Integrity gate")
struct IntegrityTests {
    @Test("checkIntegrity throws deviceCompromised on a compromised device, and sends nothing")
    func compromised() async throws {
        try await LiveServer.run { server in
            let transport = server.recorder()
            let client = server.client(server.profile(), compromised: true, transport: transport)
            await expectError(.deviceCompromised) { try await client.checkIntegrity() }
            #expect(transport.requests.isEmpty)
        }
    }

    @Test("checkIntegrity passes on a sound device, and sends nothing")
    func sound() async throws {
        try await LiveServer.run { server in
            let transport = server.recorder()
            let client = server.client(server.profile(), transport: transport)
            try await client.checkIntegrity()
            #expect(transport.requests.isEmpty)
        }
    }

    @Test(
        "a device compromised since its last login gets no fresh tokens by a silent refresh",
        )
    func refreshOnCompromisedDevice() async throws {
        try await LiveServer.run { server in
            let profile = server.profile()
            let registered = try await server.register(server.client(profile))
            try await profile.keyStore.setSession(
                StoredSession(session: registered, receivedAt: Date(timeIntervalSinceNow: -3600)),
                clientId: LiveServer.demoApp)
            let transport = server.recorder()
            let client = server.client(profile, compromised: true, transport: transport)
            await expectError(.deviceCompromised) { try await client.refresh() }
            await expectError(.deviceCompromised) { try await client.currentSession() }
            #expect(transport.requests.isEmpty)
        }
    }
}
