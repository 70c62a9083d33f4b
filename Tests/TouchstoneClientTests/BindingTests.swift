import Foundation
import Testing
import TouchstoneClient
import TouchstoneProtocol

@testable import TouchstoneDomain
@testable import TouchstoneHTTP
@testable import TouchstoneServer
@testable import TouchstoneStorage

/// Story 4: a device that no longer matches its registration is refused, and the SDK wipes its keys.
@Suite("Binding check")
struct BindingTests {
    @Test(
        "a device renamed since it registered meets bindingMismatch; its registration is wiped here and revoked there",
        arguments: [true, false])
    func renamedDevice(biometric: Bool) async throws {
        try await LiveServer.run { server in
            let profile = server.profile()
            let registered = try await server.register(server.client(profile, deviceName: "A"))
            let renamed = server.client(profile, deviceName: "B")
            await expectError(.bindingMismatch) {
                if biometric {
                    try await renamed.login(prompt: "Log in")
                } else {
                    try await renamed.login(pin: LiveServer.pin)
                }
            }
            #expect(try await renamed.status().registered == false)
            #expect(try await server.client(profile, deviceName: "A").status().registered == false)
            #expect(profile.credentialFiles.isEmpty)
            #expect(try await server.device(registered.deviceId).revokedAt != nil)
        }
    }

    @Test("after a binding mismatch the device registers again, without waiting for an approval")
    func registerAgainAfterMismatch() async throws {
        try await LiveServer.run { server in
            let profile = server.profile()
            let registered = try await server.register(server.client(profile, deviceName: "A"))
            let renamed = server.client(profile, deviceName: "B")
            await expectError(.bindingMismatch) { try await renamed.login(prompt: "Log in") }
            let again = try await renamed.register(username: "ana", password: LiveServer.password, pin: LiveServer.pin)
            #expect(again.deviceId != registered.deviceId)
            #expect(try await renamed.login(prompt: "Log in").deviceId == again.deviceId)
        }
    }
}
