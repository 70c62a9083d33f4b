import Crypto
import Foundation
import Testing
import TouchstoneProtocol
import TouchstoneTestSupport

/// `touchstone device push register|show|remove` and `touchstone device inbox ID`, as processes against a real server.
@Suite struct DevicePushTests {
    /// An APNs device token in capitals: the SDK sends it as lowercase hex.
    static let apnsToken = String(repeating: "0A1B2C3D", count: 8)

    @Test func aDeviceRegistersItsAPNsTokenShowsItWithoutTheTokenAndRemovesIt() async throws {
        try await DeviceCLI.withServer { server, client in
            try await DeviceCLI.createAccount("ana", on: client)
            let phone = try DeviceCLI.Profile(server)
            try await phone.register("ana")
            let keyFile = phone.scratch.path("AuthKey_ABCDE12345.p8")
            try P256.Signing.PrivateKey().pemRepresentation.write(toFile: keyFile, atomically: true, encoding: .utf8)
            let configured = try await server.admin([
                "app", "push", "com.example.demo", "--apns-key-file", keyFile, "--apns-key-id", "ABCDE12345",
                "--apns-team-id", "TEAM123456", "--apns-topic", "com.example.demo",
            ])
            try #require(configured.status == 0, "\(configured)")

            let none = try await phone.run(["push", "show"])
            #expect(none.status == 0 && none.stdout.contains("no push registration"), "\(none)")
            #expect(try await phone.run(["push", "show", "--json"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "{}")

            let registered = try await phone.run([
                "push", "register", "--apns", Self.apnsToken, "--topic", "com.example.demo", "--environment", "development",
            ])
            #expect(registered.status == 0 && registered.stdout.contains("APNs (development)"), "\(registered)")
            let shown = try await phone.run(["push", "show", "--json"])
            let summary = try shown.json(PushRegistrationSummary.self)
            #expect(summary.provider == .apns && summary.topic == "com.example.demo" && summary.environment == .development)
            #expect(!shown.stdout.lowercased().contains(Self.apnsToken.lowercased()), "\(shown)")
            let human = try await phone.run(["push", "show"])
            #expect(human.stdout.contains("apns com.example.demo (development)"), "\(human)")

            let removed = try await phone.run(["push", "remove"])
            #expect(removed.status == 0 && removed.stdout.contains("removed"), "\(removed)")
            #expect(try await phone.run(["push", "show"]).stdout.contains("no push registration"))
        }
    }

    @Test func aRegistrationTheServerOrTheToolRefusesExitsNonZeroWithOneLine() async throws {
        try await DeviceCLI.withServer { server, client in
            try await DeviceCLI.createAccount("ana", on: client)
            let phone = try DeviceCLI.Profile(server)
            try await phone.register("ana")
            // The demo app has no FCM credentials.
            let unconfigured = try await phone.run(["push", "register", "--fcm", "fcm-token:APA91b"])
            #expect(unconfigured.status != 0 && unconfigured.stderrLines.count == 1, "\(unconfigured)")
            #expect(unconfigured.stderr.contains("push_not_configured"), "\(unconfigured)")
            // Refused before anything is sent.
            for notHex in ["0a1g", "+f" + Self.apnsToken, "0a1"] {
                let refused = try await phone.run(["push", "register", "--apns", notHex, "--topic", "com.example.demo"])
                #expect(refused.status != 0 && refused.stderr.contains("hex digits"), "\(refused)")
            }
            let noTopic = try await phone.run(["push", "register", "--apns", Self.apnsToken])
            #expect(noTopic.status != 0 && noTopic.stderr.contains("--topic"), "\(noTopic)")
            let both = try await phone.run(["push", "register", "--apns", Self.apnsToken, "--fcm", "t", "--topic", "x"])
            #expect(both.status != 0 && both.stderr.contains("not both"), "\(both)")
            #expect(try await phone.run(["push", "show"]).stdout.contains("no push registration"))
        }
    }

    @Test func inboxWithAnIdShowsThatItemAndFailsOnceItIsDecided() async throws {
        try await DeviceCLI.withServer { server, client in
            try await DeviceCLI.createAccount("ana", on: client)
            let phone = try DeviceCLI.Profile(server)
            try await phone.register("ana")
            let started = try await client.post("/v1/web-logins", WebLoginRequest(username: "ana")).decode(WebLoginStarted.self)

            let shown = try await phone.run(["inbox", started.webLoginId, "--json"])
            #expect(shown.status == 0, "\(shown)")
            let item = try shown.json(InboxItem.self)
            #expect(item.id == started.webLoginId && item.kind == .webLogin && item.numbers?.contains(started.number) == true)
            let human = try await phone.run(["inbox", started.webLoginId])
            #expect(human.stdoutLines.count == 1 && human.stdout.hasPrefix("\(started.webLoginId)  web login from"), "\(human)")

            let approved = try await phone.run(["approve", started.webLoginId, "--pin", DeviceCLI.pin, "--number", String(started.number)])
            #expect(approved.status == 0, "\(approved)")
            let gone = try await phone.run(["inbox", started.webLoginId])
            #expect(gone.status != 0 && gone.stderrLines.count == 1 && gone.stderr.contains("not_found"), "\(gone)")
            #expect(gone.stdout.isEmpty, "\(gone)")
        }
    }
}
