import Foundation
import Testing
import TouchstoneProtocol
import TouchstoneTestSupport

/// A bank's back office asks Ana to approve a payment by OpenID CIBA with a client library nobody here wrote (Python's
/// requests-oauth2client from PyPI, installed by `scripts/test`), against `touchstone serve`; the test approves on the
/// phone with `touchstone device approve` while the library polls.
@Suite struct CIBAClientLibraryTests {
    @Test func requestsOAuth2ClientPollsWhileThePhoneApprovesThePayment() async throws {
        try await DeviceCLI.withServer { server, client in
            let created = try await server.admin([
                "app", "create", "bank", "--publisher", "demo", "--name", "Example Bank", "--client-secret",
                "--ciba-mode", "poll",
            ])
            try #require(created.status == 0, "\(created)")
            let secret = try #require(created.stdoutLines.last)
            try await DeviceCLI.createAccount("ana", on: client)
            let phone = try DeviceCLI.Profile(server)
            try await phone.register("ana")

            let scratch = try ScratchDirectory()
            let script = TouchstoneExecutable.packageRoot.appendingPathComponent(
                "Tests/TouchstoneCLITests/Scripts/ciba_client.py")
            let (stdoutPath, stderrPath) = (scratch.path("ciba.out"), scratch.path("ciba.err"))
            let python = try TouchstoneExecutable.launch(
                URL(fileURLWithPath: "/usr/bin/env"), ["python3", script.path, server.issuer, "bank", secret, "ana"],
                in: scratch, environment: [:], stdoutPath: stdoutPath, stderrPath: stderrPath)
            defer { if python.isRunning { python.terminate() } }
            func output() -> String {
                ((try? TouchstoneExecutable.readText(stdoutPath)) ?? "") + ((try? TouchstoneExecutable.readText(stderrPath)) ?? "")
            }
            let deadline = Date().addingTimeInterval(60)
            while python.isRunning, !output().contains("waiting for approval"), Date() < deadline {
                try await Task.sleep(for: .milliseconds(50))
            }
            try #require(output().contains("waiting for approval"), "\(output())")

            // The phone shows who asks, the binding message and the payment, and approves it.
            let inbox = try await phone.run(["inbox", "--json"])
            let item = try #require(try inbox.json(Inbox.self).items.first { $0.kind == .ciba }, "\(inbox)")
            #expect(item.clientName == "Example Bank" && item.bindingMessage == "Pay 123.50 EUR to Merchant A")
            #expect(item.payment?.creditorName == "Merchant A" && item.payment?.amount == "123.50")
            let human = try await phone.run(["inbox"])
            #expect(human.stdout.contains("Example Bank asks you to approve"), "\(human)")
            #expect(human.stdout.contains("pay 123.50 EUR to Merchant A (DE02100100109307118603)"), "\(human)")
            let approved = try await phone.run(["approve", item.id, "--verifier", "match", "--json"])
            #expect(approved.status == 0, "\(approved)")
            #expect(try approved.json(DecisionRecorded.self).status == .approved)

            let end = Date().addingTimeInterval(90)
            while python.isRunning, Date() < end { try await Task.sleep(for: .milliseconds(100)) }
            #expect(!python.isRunning && python.terminationStatus == 0, "\(output())")
            for step in [
                "discovery names the backchannel endpoint", "request accepted", "tokens after the approval",
                "in both tokens", "userinfo", "refresh",
            ] {
                #expect(output().contains(step), "\(step): \(output())")
            }
            #expect(output().contains("txn \(try #require(item.txn))"), "\(output())")
        }
    }

    @Test func onlyConfidentialClientsWithAValidModeAndEndpointAreRegistered() async throws {
        try await DeviceCLI.withServer { server, client in
            for arguments in [
                ["--ciba-mode", "poll"],  // public
                ["--client-secret", "--ciba-mode", "push"],
                ["--client-secret", "--ciba-mode", "ping"],
                ["--client-secret", "--ciba-mode", "poll", "--ciba-notification-endpoint", "https://bank.example/n"],
                ["--client-secret", "--ciba-mode", "ping", "--ciba-notification-endpoint", "http://bank.example/n"],
            ] {
                let refused = try await server.admin(["app", "create", "bank", "--publisher", "demo"] + arguments)
                #expect(refused.status != 0 && refused.stderrLines.count == 1, "\(arguments): \(refused)")
            }
            #expect(try await client.get("/v1/apps/bank/policy").status == 404, "nothing was stored")
            let ping = try await server.admin([
                "app", "create", "bank", "--publisher", "demo", "--client-secret", "--ciba-mode", "ping",
                "--ciba-notification-endpoint", "http://127.0.0.1:9/notify",
            ])
            #expect(ping.status == 0, "\(ping)")
        }
    }
}
