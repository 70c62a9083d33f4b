import Foundation
import Testing
import TouchstoneProtocol
import TouchstoneTestSupport

/// `touchstone device login --pin`: the policy check before sending, the server's wrong-PIN count and lock (§1.5, §2).
@Suite struct DevicePINTests {
    @Test func wrongPINsCountDownThenLockAndTheFingerprintStillWorks() async throws {
        try await DeviceCLI.withServer { server, client in
            try await DeviceCLI.createAccount("ana", on: client)
            let profile = try DeviceCLI.Profile(server)
            let status = try await profile.register("ana")
            let deviceId = try #require(status.deviceId)

            // A trivial PIN is refused on the device: nothing sent, nothing counted.
            let eventsBefore = try await DeviceCLI.audit(server)
            let trivial = try await profile.run(["login", "--pin", "111111"])
            expectOneErrorLine(trivial, mentioning: ["PIN"])
            let eventsAfter = try await DeviceCLI.audit(server)
            #expect(eventsAfter.count == eventsBefore.count, "nothing reached the server: \(eventsAfter)")

            // Five wrong PINs (the default policy): 4, 3, 2, 1 attempts remaining, then locked.
            for remaining in [4, 3, 2, 1] {
                let wrong = try await profile.run(["login", "--pin", DeviceCLI.wrongPIN])
                expectOneErrorLine(
                    wrong, mentioning: ["wrong PIN", "\(remaining) attempt\(remaining == 1 ? "" : "s") remaining"])
            }
            let locking = try await profile.run(["login", "--pin", DeviceCLI.wrongPIN])
            expectOneErrorLine(locking, mentioning: ["locked"])
            #expect(try await DeviceCLI.serverDevice(deviceId, on: server).pinLocked)

            // Locked means locked: the right PIN is refused too.
            let right = try await profile.run(["login", "--pin", DeviceCLI.pin])
            expectOneErrorLine(right, mentioning: ["locked"])

            let outcomes = try await DeviceCLI.audit(server).filter { $0.event == "login" && $0.deviceId == deviceId }
                .map(\.outcome)
            #expect(
                outcomes == ["pin_incorrect", "pin_incorrect", "pin_incorrect", "pin_incorrect", "pin_locked", "pin_locked"],
                "\(outcomes)")

            // The fingerprint still logs in, and the device stays registered.
            let session = try await profile.login(["--verifier", "match"])
            #expect(session.amr == ["bio"])
            #expect(session.deviceId == deviceId)
            #expect(try await profile.status() == status)
        }
    }
}
