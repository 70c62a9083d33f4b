import Foundation
import Testing
import TouchstoneProtocol
import TouchstoneTestSupport

/// `touchstone device recovery-codes`, `register --recovery-code`, `inbox` with notices, `dismiss`, `sessions`,
/// `end-session`, and `touchstone admin user reset`.
@Suite struct DeviceRecoveryTests {
    @Test func aNewDeviceJoinsWithACodeWhileTheOldOneIsUnreachableAndTheOldOneSeesTheNotices() async throws {
        try await DeviceCLI.withServer { server, client in
            try await DeviceCLI.createAccount("ana", on: client)
            let phone = try DeviceCLI.Profile(server)
            let phoneStatus = try await phone.register("ana", options: ["--device-name", "Ana's phone"])

            // Codes need a step-up.
            let refused = try await phone.run(["recovery-codes"])
            expectOneErrorLine(refused, mentioning: ["step-up"])
            let stepUp = try await phone.run(["step-up", "--password-stdin"], input: DeviceCLI.password + "\n")
            #expect(stepUp.status == 0, "\(stepUp)")
            let created = try await phone.run(["recovery-codes", "--json"])
            #expect(created.status == 0, "\(created)")
            let codes = try created.json(RecoveryCodes.self).codes
            #expect(codes.count == 10 && Set(codes).count == 10)

            // The phone is out of reach; a new one joins with the password and a code, without approval.
            let newPhone = try DeviceCLI.Profile(server)
            let wrong = try await newPhone.run(
                ["--device-name", "Ana's new phone", "register", "--username", "ana", "--password-stdin", "--pin",
                 DeviceCLI.pin, "--verifier", "match", "--recovery-code", "aaaa-bbbb-cccc"],
                input: DeviceCLI.password + "\n")
            expectOneErrorLine(wrong, mentioning: ["invalid_credentials"])
            let malformed = try await newPhone.run(
                ["--device-name", "Ana's new phone", "register", "--username", "ana", "--password-stdin", "--pin",
                 DeviceCLI.pin, "--verifier", "match", "--recovery-code", "not-a-code"],
                input: DeviceCLI.password + "\n")
            expectOneErrorLine(malformed, mentioning: ["recoveryCode"])
            let joined = try await newPhone.run(
                ["--device-name", "Ana's new phone", "register", "--username", "ana", "--password-stdin", "--pin",
                 DeviceCLI.pin, "--verifier", "match", "--recovery-code", codes[0].uppercased()],
                input: DeviceCLI.password + "\n", timeout: 30)
            #expect(joined.status == 0 && !joined.stderr.contains("approve"), "\(joined)")
            let newStatus = try await newPhone.status()
            #expect(newStatus.registered)

            // Back in reach, the old phone sees both notices.
            let inbox = try await phone.run(["inbox", "--json"])
            #expect(inbox.status == 0, "\(inbox)")
            let parsed = try inbox.json(Inbox.self)
            #expect(parsed.items.isEmpty)
            #expect(parsed.notices.map(\.event) == [.deviceAdded, .recoveryCodeUsed])
            #expect(parsed.notices.allSatisfy { $0.detail.deviceId == newStatus.deviceId })
            let human = try await phone.run(["inbox"])
            #expect(human.stdout.contains("device \"Ana's new phone\" was added"), "\(human)")
            #expect(human.stdout.contains("a recovery code was used to add \"Ana's new phone\""), "\(human)")
            let first = parsed.notices[0].id
            #expect(try await phone.run(["dismiss", first]).status == 0)
            expectOneErrorLine(try await phone.run(["dismiss", first]), mentioning: ["not_found"])
            #expect(try await phone.run(["inbox", "--json"]).json(Inbox.self).notices.map(\.id) == [parsed.notices[1].id])

            // Sessions: the new phone lists both, and ends the old phone's after a step-up.
            let listed = try await newPhone.run(["sessions", "--json"])
            #expect(listed.status == 0, "\(listed)")
            let sessions = try listed.json(SessionList.self).sessions
            #expect(sessions.count == 2)
            let old = try #require(sessions.first { $0.deviceId == phoneStatus.deviceId })
            #expect(sessions.first { $0.current }?.deviceId == newStatus.deviceId)
            expectOneErrorLine(try await newPhone.run(["end-session", old.sessionId]), mentioning: ["step-up"])
            #expect(
                try await newPhone.run(["step-up", "--password-stdin"], input: DeviceCLI.password + "\n").status == 0)
            let ended = try await newPhone.run(["end-session", old.sessionId])
            #expect(ended.status == 0 && ended.stdout.contains("ended"), "\(ended)")
            let text = try await newPhone.run(["sessions"])
            #expect(text.stdoutLines.count == 1 && text.stdout.contains("(this one)"), "\(text)")
        }
    }

    @Test func anAdministratorResetsAUserAndThePasswordThenEnrolsAFirstDevice() async throws {
        try await DeviceCLI.withServer { server, client in
            try await DeviceCLI.createAccount("ana", on: client)
            let phone = try DeviceCLI.Profile(server)
            try await phone.register("ana")
            #expect(try await phone.run(["step-up", "--password-stdin"], input: DeviceCLI.password + "\n").status == 0)
            let code = try #require(try await phone.run(["recovery-codes", "--json"]).json(RecoveryCodes.self).codes.first)

            let unknown = try await server.admin(["user", "reset", "nobody"])
            #expect(unknown.status != 0 && unknown.stderrLines.count == 1 && unknown.stderr.contains("nobody"), "\(unknown)")
            let reset = try await server.admin(["user", "reset", "ana"])
            #expect(reset.status == 0, "\(reset)")
            #expect(try await DeviceCLI.serverDevices(server).allSatisfy { $0.revokedAt != nil })
            expectOneErrorLine(try await phone.run(["sessions"]), mentioning: [])
            #expect(try await DeviceCLI.audit(server).contains { $0.event == "admin.user.reset" })

            // The spent code no longer works; the password alone enrols a first device again.
            let newPhone = try DeviceCLI.Profile(server)
            let withCode = try await newPhone.run(
                ["register", "--username", "ana", "--password-stdin", "--pin", DeviceCLI.pin, "--verifier", "match",
                 "--recovery-code", code],
                input: DeviceCLI.password + "\n")
            expectOneErrorLine(withCode, mentioning: ["invalid_credentials"])
            try await newPhone.register("ana")
        }
    }
}
