import Foundation
import Testing
import TouchstoneProtocol
import TouchstoneTestSupport

/// DESIGN.md §1.12: apps of one publisher share one device enrolment (one profile = one keychain access group).
@Suite struct DeviceSingleSignOnTests {
    @Test func anotherAppOfThePublisherLogsInWithoutRegisteringAgain() async throws {
        try await DeviceCLI.withServer { server, client in
            let wallet = try await server.admin(["app", "create", "com.example.wallet", "--publisher", "demo"])
            try #require(wallet.status == 0, "\(wallet)")
            let bank = try await server.admin(["app", "create", "com.acme.bank", "--publisher", "acme"])
            try #require(bank.status == 0, "\(bank)")
            try await DeviceCLI.createAccount("ana", on: client)
            let profile = try DeviceCLI.Profile(server)
            let status = try await profile.register("ana")
            let deviceId = try #require(status.deviceId)

            // The same profile, another app of the same publisher: no registration, a fingerprint is enough.
            let walletStatus = try await profile.status(options: ["--client-id", "com.example.wallet"])
            #expect(
                walletStatus
                    == DeviceCLI.Status(
                        registered: true, deviceId: deviceId, username: "ana", clientId: "com.example.wallet",
                        biometric: true))
            let session = try await profile.login(["--verifier", "match"], options: ["--client-id", "com.example.wallet"])
            #expect(session.amr == ["bio"])
            #expect(session.deviceId == deviceId)
            let claims = try AccessToken(session.accessToken).claims
            #expect(claims.aud == "com.example.wallet")
            #expect(claims.did == deviceId)

            let devices = try await DeviceCLI.serverDevices(server)
            #expect(devices.map(\.deviceId) == [deviceId], "one enrolment for both apps")
            let events = try await DeviceCLI.audit(server)
            #expect(events.filter { $0.event == "enrollment.complete" }.count == 1, "\(events)")
            #expect(
                events.contains { $0.event == "login" && $0.outcome == "ok" && $0.clientId == "com.example.wallet" },
                "\(events)")

            // An app of another publisher is refused, and the device keeps its registration.
            let refused = try await profile.run(["--client-id", "com.acme.bank", "login", "--verifier", "match"])
            expectOneErrorLine(refused, mentioning: ["app_not_in_publisher"])
            #expect(try await profile.status() == status)
            #expect(try await DeviceCLI.serverDevice(deviceId, on: server).revokedAt == nil)
        }
    }
}
