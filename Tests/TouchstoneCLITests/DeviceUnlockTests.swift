import Foundation
import Testing
import TouchstoneProtocol
import TouchstoneTestSupport

/// `touchstone device unlock` (DESIGN.md §1.6): a silent refresh while the session lives, else a login; and the
/// command's help.
@Suite struct DeviceUnlockTests {
    @Test func unlockRefreshesSilentlyElseLogsIn() async throws {
        try await DeviceCLI.withServer { server, client in
            for app in ["com.example.wallet", "com.example.pay"] {
                let created = try await server.admin(["app", "create", app, "--publisher", "demo"])
                try #require(created.status == 0, "\(created)")
            }
            try await DeviceCLI.createAccount("ana", on: client)
            let profile = try DeviceCLI.Profile(server)
            let deviceId = try #require(try await profile.register("ana").deviceId)
            let login = try await profile.login(["--verifier", "match"])
            let loginsBefore = try await DeviceCLI.audit(server).filter { $0.event == "login" }

            // A cancelling verifier proves no fingerprint is asked for: the session is refreshed silently.
            let unlocked = try await profile.run(["unlock", "--verifier", "cancel", "--json"])
            try #require(unlocked.status == 0 && !unlocked.timedOut, "\(unlocked)")
            #expect(unlocked.stdoutLines.count == 1 && unlocked.stderr.isEmpty, "\(unlocked)")
            let refreshed = try unlocked.json(Session.self)
            #expect(refreshed.refreshToken != login.refreshToken, "the refresh token rotated")
            #expect(refreshed.accessToken != login.accessToken)
            #expect(refreshed.amr == ["bio"] && refreshed.acr == "aal2")
            #expect(refreshed.deviceId == deviceId && refreshed.userId == login.userId)
            #expect(
                try AccessToken(refreshed.accessToken).claims.sid == AccessToken(login.accessToken).claims.sid,
                "the same session, refreshed")
            let text = try await profile.run(["unlock"])
            #expect(text.status == 0 && text.stdoutLines.count == 1, "\(text)")
            #expect(text.stdout.contains(login.userId), "\(text)")
            let loginsAfter = try await DeviceCLI.audit(server).filter { $0.event == "login" }
            #expect(loginsAfter.count == loginsBefore.count, "no new login: \(loginsAfter)")

            // No session for this app yet: unlock logs in, with the fingerprint or with --pin.
            let wallet = try await profile.run(["--client-id", "com.example.wallet", "unlock", "--verifier", "match", "--json"])
            try #require(wallet.status == 0 && !wallet.timedOut, "\(wallet)")
            let walletSession = try wallet.json(Session.self)
            #expect(walletSession.amr == ["bio"] && walletSession.deviceId == deviceId)
            #expect(try AccessToken(walletSession.accessToken).claims.aud == "com.example.wallet")
            let pay = try await profile.run(
                ["unlock", "--pin", DeviceCLI.pin, "--json", "--client-id", "com.example.pay"])
            try #require(pay.status == 0 && !pay.timedOut, "\(pay)")
            let paySession = try pay.json(Session.self)
            #expect(paySession.amr == ["pin"] && paySession.deviceId == deviceId)
            #expect(try AccessToken(paySession.accessToken).claims.aud == "com.example.pay")
            let newLogins = try await DeviceCLI.audit(server).filter { $0.event == "login" }.dropFirst(loginsBefore.count)
            #expect(
                newLogins.map { "\($0.outcome) \($0.clientId ?? "-")" } == ["ok com.example.wallet", "ok com.example.pay"],
                "\(newLogins)")
        }
    }

    @Test func helpListsEverySubcommand() async throws {
        let scratch = try ScratchDirectory()
        let help = try await DeviceCLI.run(["device", "--help"], input: nil, in: scratch, timeout: 30)
        #expect(help.status == 0 && !help.timedOut, "\(help)")
        let firstWords = Set(
            help.stdoutLines.compactMap { $0.split(separator: " ", omittingEmptySubsequences: true).first.map(String.init) })
        for subcommand in ["register", "login", "unlock", "opt-out", "deregister", "reset", "status"] {
            #expect(firstWords.contains(subcommand), "\(subcommand) in \(help.stdout)")
        }
        for option in ["--profile", "--server", "--client-id", "--device-name", "--json"] {
            #expect(help.stdout.contains(option), "\(option) in \(help.stdout)")
        }
        let login = try await DeviceCLI.run(["device", "login", "--help"], input: nil, in: scratch, timeout: 30)
        #expect(login.status == 0, "\(login)")
        #expect(login.stdout.contains("--pin") && login.stdout.contains("--verifier"), "\(login)")
    }
}
