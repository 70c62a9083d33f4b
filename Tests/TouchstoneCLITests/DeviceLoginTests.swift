import Foundation
import Testing
import TouchstoneProtocol
import TouchstoneTestSupport

/// `touchstone device login`: the fingerprint, and the PIN when the fingerprint is not the way (DESIGN.md §1.3, §1.5).
@Suite struct DeviceLoginTests {
    @Test func aFingerprintLogsIn() async throws {
        try await DeviceCLI.withServer { server, client in
            try await DeviceCLI.createAccount("ana", on: client)
            let profile = try DeviceCLI.Profile(server)
            let status = try await profile.register("ana")
            let deviceId = try #require(status.deviceId)

            let result = try await profile.run(["login", "--verifier", "match", "--json"])
            try #require(result.status == 0 && !result.timedOut, "\(result)")
            #expect(result.stdoutLines.count == 1, "one JSON object: \(result)")
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result)")
            #expect(
                Set(object.keys) == [
                    "accessToken", "refreshToken", "tokenType", "expiresIn", "amr", "acr", "userId", "deviceId", "scope",
                ], "\(result)")
            let session = try result.json(Session.self)
            #expect(session.amr == ["bio"])
            #expect(session.acr == "aal2")
            #expect(session.deviceId == deviceId)
            #expect(session.tokenType == "Bearer")
            let claims = try AccessToken(session.accessToken).claims
            #expect(claims.iss == server.issuer)
            #expect(claims.aud == "com.example.demo")
            #expect(claims.did == deviceId)
            #expect(claims.sub == session.userId)
            #expect(claims.amr == ["bio"])

            let logins = try await DeviceCLI.audit(server).filter { $0.event == "login" }
            #expect(logins.map(\.outcome) == ["ok"], "\(logins)")
            #expect(logins.first?.deviceId == deviceId && logins.first?.clientId == "com.example.demo", "\(logins)")

            // Without --json: one line for people.
            let text = try await profile.run(["login", "--verifier", "match"])
            #expect(text.status == 0 && text.stdoutLines.count == 1, "\(text)")
            #expect(text.stdout.contains(session.userId) && text.stdout.contains("bio"), "\(text)")

            // A fingerprint that does not match: one line, no PIN asked for, nothing sent.
            let before = try await DeviceCLI.audit(server).count
            let nomatch = try await profile.run(["login", "--verifier", "nomatch"], input: DeviceCLI.pin + "\n")
            expectOneErrorLine(nomatch, mentioning: ["did not match"])
            #expect(try await DeviceCLI.audit(server).count == before, "nothing reached the server")
        }
    }

    /// The sensor locked out, or the user choosing "use PIN": the PIN (read from standard input) logs in instead.
    @Test func lockoutAndUsePINFallBackToThePIN() async throws {
        try await DeviceCLI.withServer { server, client in
            try await DeviceCLI.createAccount("ana", on: client)
            let profile = try DeviceCLI.Profile(server)
            let status = try await profile.register("ana")
            #expect(status.biometric)

            for verifier in ["lockout", "fallback"] {
                let session = try await profile.login(["--verifier", verifier], input: DeviceCLI.pin + "\n")
                #expect(session.amr == ["pin"], "\(verifier)")
                #expect(session.acr == "aal2", "\(verifier)")
                #expect(session.deviceId == status.deviceId, "\(verifier)")
                #expect(try AccessToken(session.accessToken).claims.amr == ["pin"], "\(verifier)")
            }

            // No PIN given at the prompt (standard input ends): cancelled, non-zero, nothing sent.
            let before = try await DeviceCLI.audit(server).count
            let noPIN = try await profile.run(["login", "--verifier", "lockout"])
            #expect(noPIN.status != 0 && !noPIN.timedOut, "\(noPIN)")
            #expect(noPIN.stdout.isEmpty, "\(noPIN)")
            #expect(noPIN.stderrLines.last?.hasPrefix("touchstone: ") == true, "\(noPIN)")
            #expect(noPIN.stderr.contains("cancelled"), "\(noPIN)")
            #expect(try await DeviceCLI.audit(server).count == before, "nothing reached the server")
            #expect(try await profile.status() == status)
        }
    }

    @Test func cancellingTheFingerprintChangesNothing() async throws {
        try await DeviceCLI.withServer { server, client in
            try await DeviceCLI.createAccount("ana", on: client)
            let profile = try DeviceCLI.Profile(server)
            let status = try await profile.register("ana")
            let deviceId = try #require(status.deviceId)
            let filesBefore = try Self.contents(of: profile)
            let eventsBefore = try await DeviceCLI.audit(server)

            let cancelled = try await profile.run(["login", "--verifier", "cancel"], input: DeviceCLI.pin + "\n")
            expectOneErrorLine(cancelled, mentioning: ["cancelled"])

            #expect(try await profile.status() == status)
            #expect(try Self.contents(of: profile) == filesBefore, "the profile is untouched")
            let eventsAfter = try await DeviceCLI.audit(server)
            #expect(eventsAfter.count == eventsBefore.count, "no new event: \(eventsAfter)")
            #expect(
                !eventsAfter.contains { $0.deviceId == deviceId && ($0.event == "login" || $0.event == "challenge") },
                "no login attempt for the device: \(eventsAfter)")
            #expect(try await DeviceCLI.serverDevice(deviceId, on: server).revokedAt == nil)

            // The prompt is answered before any request: with the server gone, it is still just "cancelled".
            await server.stop()
            let offline = try await profile.run(["login", "--verifier", "cancel"])
            expectOneErrorLine(offline, mentioning: ["cancelled"])
            #expect(!offline.stderr.contains("cannot reach"), "\(offline)")
        }
    }

    /// §7: "non-zero with a one-line reason on standard error". A PIN asked for after a fingerprint fallback is read
    /// from standard input without a prompt when it is not a terminal (Terminal.readSecret), but the reason for asking
    /// is printed anyway, so a refused fallback PIN leaves two lines on standard error.
    @Test
    func aRefusedFallbackPINIsReportedOnOneLine() async throws {
        try await DeviceCLI.withServer { server, client in
            try await DeviceCLI.createAccount("ana", on: client)
            let profile = try DeviceCLI.Profile(server)
            try await profile.register("ana")
            let refused = try await profile.run(["login", "--verifier", "lockout"], input: DeviceCLI.wrongPIN + "\n")
            expectOneErrorLine(refused, mentioning: ["wrong PIN", "4 attempts remaining"])
        }
    }

    /// Every file of the profile and its contents.
    static func contents(of profile: DeviceCLI.Profile) throws -> [String: String] {
        var contents: [String: String] = [:]
        for name in try profile.fileNames() {
            contents[name] = try TouchstoneExecutable.readText(
                URL(fileURLWithPath: profile.path).appendingPathComponent(name).path)
        }
        return contents
    }
}
