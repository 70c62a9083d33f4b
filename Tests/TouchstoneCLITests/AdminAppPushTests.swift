import Crypto
import Foundation
import Testing
import TouchstoneProtocol
import TouchstoneTestSupport
import _CryptoExtras

/// `touchstone admin app push` stores an app's APNs and FCM credentials, one provider at a time, and `admin app list`
/// shows which are set, never a key.
@Suite struct AdminAppPushTests {
    /// What `app list --json` shows of an app's pushes.
    struct Listed: Decodable {
        struct Push: Decodable, Equatable {
            struct APNs: Decodable, Equatable {
                var keyId: String
                var teamId: String
                var topics: [String]
            }

            struct FCM: Decodable, Equatable {
                var projectId: String
                var clientEmail: String
            }

            var apns: APNs?
            var fcm: FCM?
        }

        var clientId: String
        var push: Push
    }

    /// The demo app's push setup, as `app list --json` shows it.
    func demoPush(_ server: ServerProcess) async throws -> Listed.Push {
        let list = try await server.admin(["app", "list", "--json"])
        #expect(list.status == 0, "\(list)")
        let apps = try #require(try list.json([String: [Listed]].self)["apps"])
        return try #require(apps.first { $0.clientId == "com.example.demo" }).push
    }

    /// Writes `text` into the server's scratch directory and returns its path.
    func file(_ server: ServerProcess, _ name: String, _ text: String) throws -> String {
        let path = server.directory.path(name)
        try Data(text.utf8).write(to: URL(filePath: path))
        return path
    }

    func serviceAccountJSON(privateKey: String) throws -> String {
        let members: [String: String] = [
            "type": "service_account", "project_id": "demo-project", "private_key_id": "0123abcd",
            "private_key": privateKey, "client_email": "push@demo-project.iam.gserviceaccount.com",
            "token_uri": "https://oauth2.googleapis.com/token",
        ]
        return String(decoding: try JSONSerialization.data(withJSONObject: members), as: UTF8.self)
    }

    @Test func credentialsAreStoredPerProviderAndListedWithoutKeys() async throws {
        try await withServer { server, _ in
            let p8 = P256.Signing.PrivateKey().pemRepresentation
            let rsa = try _RSA.Signing.PrivateKey(keySize: .bits2048).pkcs8PEMRepresentation
            let keyFile = try file(server, "AuthKey_ABCDE12345.p8", p8)
            let accountFile = try file(server, "service-account.json", try serviceAccountJSON(privateKey: rsa))
            #expect(try await demoPush(server) == Listed.Push())
            let before = try await server.admin(["app", "list"])
            #expect(before.stdoutLines.first { $0.hasPrefix("com.example.demo") }?.hasSuffix(" push=none") == true, "\(before)")

            let apns = try await server.admin([
                "app", "push", "com.example.demo", "--apns-key-file", keyFile, "--apns-key-id", "ABCDE12345",
                "--apns-team-id", "TEAM123456", "--apns-topic", "com.example.demo", "--apns-topic", "com.example.demo.voip",
            ])
            #expect(apns.status == 0, "\(apns)")
            let apnsOnly = Listed.Push(
                apns: .init(keyId: "ABCDE12345", teamId: "TEAM123456", topics: ["com.example.demo", "com.example.demo.voip"]))
            #expect(try await demoPush(server) == apnsOnly)

            // FCM alone keeps APNs as it is.
            let fcm = try await server.admin(["app", "push", "com.example.demo", "--fcm-service-account", accountFile])
            #expect(fcm.status == 0, "\(fcm)")
            var both = apnsOnly
            both.fcm = .init(projectId: "demo-project", clientEmail: "push@demo-project.iam.gserviceaccount.com")
            #expect(try await demoPush(server) == both)

            // Listed without key material, as text and as JSON.
            let text = try await server.admin(["app", "list"])
            let json = try await server.admin(["app", "list", "--json"])
            #expect(
                text.stdoutLines.first { $0.hasPrefix("com.example.demo") }?
                    .hasSuffix(" push=apns(com.example.demo,com.example.demo.voip),fcm(demo-project)") == true, "\(text)")
            for output in [text.stdout, json.stdout] {
                #expect(!output.contains("PRIVATE KEY") && !output.contains("0123abcd"), "\(output)")
                for line in (p8 + rsa).split(separator: "\n") where !line.hasPrefix("-----") {
                    #expect(!output.contains(line), "key material listed: \(output)")
                }
            }

            // --no-apns removes APNs only; --no-fcm then FCM.
            #expect(try await server.admin(["app", "push", "com.example.demo", "--no-apns"]).status == 0)
            #expect(try await demoPush(server) == Listed.Push(fcm: both.fcm))
            #expect(try await server.admin(["app", "push", "com.example.demo", "--no-fcm"]).status == 0)
            #expect(try await demoPush(server) == Listed.Push())
        }
    }

    @Test func aMalformedFileOrKeyIsOneLineAndStoresNothing() async throws {
        try await withServer { server, _ in
            let p8 = P256.Signing.PrivateKey().pemRepresentation
            let keyFile = try file(server, "AuthKey.p8", p8)
            let rsa = try _RSA.Signing.PrivateKey(keySize: .bits2048).pkcs8PEMRepresentation
            let accountFile = try file(server, "account.json", try serviceAccountJSON(privateKey: rsa))
            #expect(try await server.admin(["app", "push", "com.example.demo", "--fcm-service-account", accountFile]).status == 0)
            let stored = try await demoPush(server)

            let apns = ["--apns-key-id", "ABCDE12345", "--apns-team-id", "TEAM123456", "--apns-topic", "com.example.demo"]
            let refusals: [[String]] = [
                ["--apns-key-file", try file(server, "garbage.p8", "not a key")] + apns,
                ["--apns-key-file", try file(server, "rsa.p8", rsa)] + apns,
                ["--apns-key-file", server.directory.path("missing.p8")] + apns,
                ["--apns-key-file", keyFile, "--apns-key-id", "short", "--apns-team-id", "TEAM123456", "--apns-topic", "t"],
                ["--apns-key-file", keyFile, "--apns-key-id", "ABCDE12345", "--apns-team-id", "TEAM123456"],
                ["--fcm-service-account", try file(server, "broken.json", "{")],
                ["--fcm-service-account", try file(server, "ec.json", try serviceAccountJSON(privateKey: p8))],
                ["--fcm-service-account", try file(server, "p8.json", p8)],
                ["--fcm-service-account", accountFile, "--no-fcm"],
                [],
            ]
            for arguments in refusals {
                let refused = try await server.admin(["app", "push", "com.example.demo"] + arguments)
                #expect(refused.status != 0, "\(arguments): \(refused)")
                #expect(refused.stderrLines.count == 1, "\(arguments): \(refused)")
                #expect(!refused.stderr.contains("PRIVATE KEY"), "\(arguments): \(refused)")
            }
            // An unknown app.
            let unknown = try await server.admin(["app", "push", "com.example.nope", "--no-apns"])
            #expect(unknown.status != 0 && unknown.stderrLines.count == 1, "\(unknown)")
            #expect(try await demoPush(server) == stored)
        }
    }
}
