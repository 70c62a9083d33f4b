import Foundation
import Testing
import TouchstoneClient
import TouchstoneProtocol

@testable import TouchstoneDomain
@testable import TouchstoneHTTP
@testable import TouchstoneServer
@testable import TouchstoneStorage

/// What the device holds for an app.
@Suite("Status")
struct StatusTests {
    @Test("an empty profile holds nothing")
    func empty() async throws {
        try await LiveServer.run { server in
            let transport = server.recorder()
            let status = try await server.client(server.profile(), transport: transport).status()
            #expect(status.registered == false)
            #expect(status.deviceId == nil)
            #expect(status.username == nil)
            #expect(status.clientId == LiveServer.demoApp)
            #expect(status.biometric == false)
            #expect(transport.requests.isEmpty)
        }
    }

    @Test("a registered profile: its device id, username, app and whether it has a biometric key")
    func registered() async throws {
        try await LiveServer.run { server in
            let client = server.client(server.profile())
            let session = try await server.register(client, username: "bea")
            let status = try await client.status()
            #expect(status.registered)
            #expect(status.deviceId == session.deviceId)
            #expect(status.username == "bea")
            #expect(status.clientId == LiveServer.demoApp)
            #expect(status.biometric)
        }
    }
}
