import Foundation
import Testing
import TouchstoneProtocol
import TouchstoneTestSupport

/// Opt-out, deregistration, reset and the binding check, each seen on the device and on the server
/// (DESIGN.md §1.4, §1.8, §1.13).
@Suite struct DeviceLifecycleTests {
    @Test func afterOptingOutTheDeviceLogsInWithItsPIN() async throws {
        try await DeviceCLI.withServer { server, client in
            try await DeviceCLI.createAccount("ana", on: client)
            let profile = try DeviceCLI.Profile(server)
            let status = try await profile.register("ana")
            let deviceId = try #require(status.deviceId)
            #expect(try await profile.login(["--verifier", "match"]).amr == ["bio"])

            let optOut = try await profile.run(["opt-out"])
            #expect(optOut.status == 0 && !optOut.timedOut, "\(optOut)")
            #expect(optOut.stdoutLines.count == 1 && optOut.stderr.isEmpty, "\(optOut)")

            var expected = status
            expected.biometric = false
            #expect(try await profile.status() == expected)
            #expect(try await !DeviceCLI.serverDevice(deviceId, on: server).biometric, "revoked on the server")
            let events = try await DeviceCLI.audit(server)
            #expect(events.contains { $0.event == "device.opt_out" && $0.outcome == "ok" && $0.deviceId == deviceId })

            // A fingerprint login now asks for the PIN (standard input) and logs in with it.
            let asked = try await profile.login(["--verifier", "match"], input: DeviceCLI.pin + "\n")
            #expect(asked.amr == ["pin"])
            #expect(asked.deviceId == deviceId)
            let withPIN = try await profile.login(["--pin", DeviceCLI.pin])
            #expect(withPIN.amr == ["pin"])
            #expect(withPIN.deviceId == deviceId)
        }
    }

    @Test func deregisterRevokesOnTheServerAndResetForgetsLocallyOnly() async throws {
        try await DeviceCLI.withServer { server, client in
            try await DeviceCLI.createAccount("ana", on: client)
            let first = try DeviceCLI.Profile(server)
            let firstId = try #require(try await first.register("ana").deviceId)

            let deregistered = try await first.run(["deregister"])
            #expect(deregistered.status == 0 && !deregistered.timedOut, "\(deregistered)")
            #expect(deregistered.stdoutLines.count == 1 && deregistered.stderr.isEmpty, "\(deregistered)")
            #expect(
                try await first.status()
                    == DeviceCLI.Status(
                        registered: false, deviceId: nil, username: nil, clientId: "com.example.demo", biometric: false))
            #expect(try first.fileNames() == ["vendor-id"], "keys and sessions are deleted")
            #expect(try await DeviceCLI.serverDevice(firstId, on: server).revokedAt != nil)
            let events = try await DeviceCLI.audit(server)
            #expect(events.contains { $0.event == "device.revoke" && $0.outcome == "ok" && $0.deviceId == firstId })
            let login = try await first.run(["login", "--verifier", "match"])
            expectOneErrorLine(login, mentioning: ["not registered"])

            // Another profile of the same user (no approval needed: the first device is gone); reset is local only.
            let second = try DeviceCLI.Profile(server)
            let secondId = try #require(try await second.register("ana").deviceId)
            #expect(secondId != firstId)
            let reset = try await second.run(["reset"])
            #expect(reset.status == 0 && !reset.timedOut, "\(reset)")
            #expect(reset.stdoutLines.count == 1 && reset.stderr.isEmpty, "\(reset)")
            #expect(try await !second.status().registered)
            let files = try second.fileNames()
            #expect(!files.contains("registration.json"), "\(files)")
            let kept = try await DeviceCLI.serverDevice(secondId, on: server)
            #expect(kept.revokedAt == nil, "the server is not told")
            #expect(
                !(try await DeviceCLI.audit(server)).contains { $0.event == "device.revoke" && $0.deviceId == secondId })
        }
    }

    /// DESIGN.md §1.13: "an administrator can revoke any device"; the device's own `deregister` must still end with
    /// the keys wiped here, as it does when the server no longer knows the device.
    @Test
    func deregisterWipesADeviceTheAdministratorRevoked() async throws {
        try await DeviceCLI.withServer { server, client in
            try await DeviceCLI.createAccount("ana", on: client)
            let profile = try DeviceCLI.Profile(server)
            let deviceId = try #require(try await profile.register("ana").deviceId)
            let revoked = try await server.admin(["revoke", deviceId])
            try #require(revoked.status == 0, "\(revoked)")

            let deregistered = try await profile.run(["deregister"])
            #expect(deregistered.status == 0 && deregistered.stderr.isEmpty, "\(deregistered)")
            #expect(try await !profile.status().registered)
            let files = try profile.fileNames()
            #expect(!files.contains("registration.json"), "\(files)")
        }
    }

    /// DESIGN.md §1.4: "a login with another name must meet binding_mismatch"; the SDK wipes its keys.
    @Test func aRenamedDeviceMustRegisterAgain() async throws {
        try await DeviceCLI.withServer { server, client in
            try await DeviceCLI.createAccount("ana", on: client)
            let profile = try DeviceCLI.Profile(server)
            let deviceId = try #require(try await profile.register("ana").deviceId)
            #expect(try await DeviceCLI.serverDevice(deviceId, on: server).name == ProcessInfo.processInfo.hostName)

            let mismatch = try await profile.run(["--device-name", "other", "login", "--verifier", "match"])
            expectOneErrorLine(mismatch, mentioning: ["register again"])

            #expect(try await !profile.status().registered)
            let files = try profile.fileNames()
            #expect(!files.contains("registration.json"), "\(files)")
            #expect(try await DeviceCLI.serverDevice(deviceId, on: server).revokedAt != nil)
            let events = try await DeviceCLI.audit(server)
            #expect(
                events.contains { $0.event == "login" && $0.outcome == "binding_mismatch" && $0.deviceId == deviceId },
                "\(events)")

            // Under its own name again, the keys are gone: it is not registered.
            let again = try await profile.run(["login", "--verifier", "match"])
            expectOneErrorLine(again, mentioning: ["not registered"])
        }
    }
}
