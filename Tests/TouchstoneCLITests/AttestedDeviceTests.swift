import Foundation
import Testing
import TouchstoneInsecureTestAttestation
import TouchstoneProtocol
import TouchstoneTestSupport

/// Story 17 end to end: an app that requires attestation, `touchstone serve --insecure-attestation-root` of a test CA,
/// and `touchstone device register --insecure-test-attestation-ca` attesting its keys with that CA.
@Suite struct AttestedDeviceTests {
    static let app = "com.example.attested"
    static let android = "com.example.attested.android:" + String(repeating: "ab", count: 32)

    /// `admin devices --json` with each device's attestation.
    struct AttestedServerDevice: Decodable {
        var deviceId: String
        var attestation: String?
    }

    @Test func aDeviceAttestedByTheTestCAEnrolsAndAdminDevicesShowsIt() async throws {
        let authority = try ScratchDirectory()
        let ca = try InsecureTestAttestationCA.inDirectory(URL(fileURLWithPath: authority.path("ca")))
        let root = authority.path("ca/root.pem")
        #expect(try String(contentsOfFile: root, encoding: .utf8) == (try ca.rootPEM()))
        try await DeviceCLI.withServer(["--insecure-attestation-root", root]) { server, client in
            let created = try await server.admin([
                "app", "create", Self.app, "--publisher", "attested", "--attestation", "required",
                "--android-app", Self.android,
            ])
            try #require(created.status == 0, "\(created)")
            let policy = try await client.get("/v1/apps/\(Self.app)/policy")
            #expect(try policy.decode(AppPolicy.self).attestation == .required)
            try await DeviceCLI.createAccount("ana", on: client)
            try await DeviceCLI.createAccount("bob", on: client)
            let register = [
                "--client-id", Self.app, "register", "--password-stdin", "--pin", DeviceCLI.pin, "--verifier", "match",
            ]

            // Without an attestation the app refuses the device, and nothing is kept.
            let unattested = try DeviceCLI.Profile(server)
            let refused = try await unattested.run(register + ["--username", "bob"], input: DeviceCLI.password + "\n")
            expectOneErrorLine(refused, mentioning: ["attestation"])
            #expect(try await unattested.status(options: ["--client-id", Self.app]).registered == false)

            /// `register` attested by the test CA in `directory`.
            func registerAttested(_ profile: DeviceCLI.Profile, _ username: String, ca directory: String) async throws
                -> CommandResult
            {
                try await profile.run(
                    register + [
                        "--username", username, "--insecure-test-attestation-ca", directory,
                        "--insecure-test-attestation-app", Self.android,
                    ],
                    input: DeviceCLI.password + "\n")
            }

            // Attested by a CA the server does not trust: refused too.
            let strangerCA = try ScratchDirectory()
            let untrusted = try await registerAttested(try DeviceCLI.Profile(server), "bob", ca: strangerCA.path("ca"))
            expectOneErrorLine(untrusted, mentioning: ["attestation"])

            let profile = try DeviceCLI.Profile(server)
            let registered = try await registerAttested(profile, "ana", ca: authority.path("ca"))
            try #require(registered.status == 0, "\(registered)")
            let status = try await profile.status(options: ["--client-id", Self.app])
            #expect(status.biometric)

            let devices = try await server.admin(["devices", "--json"])
            let listed = try #require(try devices.json([String: [AttestedServerDevice]].self)["devices"])
            #expect(listed.map(\.deviceId) == [status.deviceId].compactMap { $0 })
            #expect(listed.first?.attestation == "android-tee")
            #expect(devices.stdout.contains(#""attestation":"android-tee""#), "\(devices)")
            let text = try await server.admin(["devices"])
            #expect(text.stdout.contains("attestation=android-tee"), "\(text)")
        }
    }

    @Test func adminDevicesShowsNullForADeviceWithoutAttestation() async throws {
        try await DeviceCLI.withServer { server, client in
            try await DeviceCLI.createAccount("ana", on: client)
            try await DeviceCLI.Profile(server).register("ana")
            let devices = try await server.admin(["devices", "--json"])
            #expect(devices.stdout.contains(#""attestation":null"#), "\(devices)")
        }
    }

    @Test(arguments: [
        (["--attestation", "required"], ["--android-app", "--apple-app-id"]),
        (["--android-app", "com.example.app"], ["--android-app", "PACKAGE:SHA256"]),
        (["--android-app", "com.example.app:" + String(repeating: "AB", count: 32)], ["lowercase"]),
        (["--android-app", "com.example.app:abcd"], ["64"]),
        (["--android-app", "1com.example:" + String(repeating: "ab", count: 32)], ["PACKAGE:SHA256"]),
        (["--apple-app-id", "com.example.app"], ["TEAMID"]),
        (["--apple-app-id", "ABCDE12345."], ["TEAMID"]),
        (["--apple-development"], ["--apple-app-id"]),
        (["--attestation", "sometimes"], ["--attestation"]),
    ])
    func badAttestationSettingsAreRefusedAndNothingIsStored(arguments: [String], mentions: [String]) async throws {
        try await withServer { server, client in
            let refused = try await server.admin(["app", "create", Self.app, "--publisher", "attested"] + arguments)
            #expect(refused.status != 0, "\(refused)")
            for word in mentions {
                #expect(refused.stderr.contains(word), "mentions \(word): \(refused)")
            }
            expectProblem(try await client.get("/v1/apps/\(Self.app)/policy"), status: 404, code: "app_not_found")
        }
    }

    @Test func appAttestSettingsAreAccepted() async throws {
        try await withServer { server, client in
            let created = try await server.admin([
                "app", "create", Self.app, "--publisher", "attested", "--attestation", "required", "--apple-app-id",
                "ABCDE12345.com.example.attested", "--apple-development",
            ])
            #expect(created.status == 0, "\(created)")
            let policy = try await client.get("/v1/apps/\(Self.app)/policy")
            #expect(try policy.object()["attestation"] as? String == "required")
        }
    }
}
