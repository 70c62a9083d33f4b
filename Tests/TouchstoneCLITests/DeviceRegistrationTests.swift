import Foundation
import Testing
import TouchstoneProtocol
import TouchstoneTestSupport

/// `touchstone device register` and `status` as processes against `touchstone serve` (DESIGN.md §1.2, §6, §7).
@Suite struct DeviceRegistrationTests {
    @Test func registerWithAFingerprintKeepsTheKeysInAPrivateProfile() async throws {
        try await DeviceCLI.withServer { server, client in
            try await DeviceCLI.createAccount("ana", on: client)
            let profile = try DeviceCLI.Profile(server)
            let registered = try await profile.run(
                ["register", "--username", "ana", "--password-stdin", "--pin", DeviceCLI.pin, "--verifier", "match"],
                input: DeviceCLI.password + "\n")
            try #require(registered.status == 0 && !registered.timedOut, "\(registered)")
            #expect(registered.stdoutLines.count == 1, "\(registered)")
            #expect(registered.stdout.contains("with fingerprint and PIN"), "\(registered)")
            #expect(registered.stderr.isEmpty, "\(registered)")

            // The options are also accepted after the subcommand.
            let statusRun = try await DeviceCLI.run(
                ["device", "status", "--json", "--profile", profile.path, "--server", profile.server], input: nil,
                in: profile.scratch)
            try #require(statusRun.status == 0, "\(statusRun)")
            #expect(statusRun.stdoutLines.count == 1, "one JSON object: \(statusRun)")
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(statusRun.stdout.utf8)) as? [String: Any], "\(statusRun)")
            #expect(Set(object.keys) == ["registered", "deviceId", "username", "clientId", "biometric"], "\(statusRun)")
            let status = try statusRun.json(DeviceCLI.Status.self)
            let deviceId = try #require(status.deviceId, "\(statusRun)")
            #expect(status.registered)
            #expect(!deviceId.isEmpty)
            #expect(status.username == "ana")
            #expect(status.clientId == "com.example.demo")
            #expect(status.biometric)
            #expect(registered.stdout.contains(deviceId), "register names the device: \(registered)")

            let text = try await profile.run(["status"])
            #expect(text.status == 0 && text.stdoutLines.count == 1, "\(text)")
            #expect(text.stdout.contains(deviceId) && text.stdout.contains("ana") && text.stdout.contains("biometric on"), "\(text)")

            // The server bound this device, under the host name, with a biometric key.
            let onServer = try await DeviceCLI.serverDevice(deviceId, on: server)
            #expect(onServer.username == "ana")
            #expect(onServer.clientId == "com.example.demo")
            #expect(onServer.publisher == "demo")
            #expect(onServer.name == ProcessInfo.processInfo.hostName)
            #expect(onServer.biometric)
            #expect(!onServer.pinLocked)
            #expect(onServer.revokedAt == nil)

            // DESIGN.md §6: the profile directory is 0700 and every file in it 0600; no temporary file is left.
            let sessionFile = "session-" + Base64URL.encode(Array("com.example.demo".utf8)) + ".json"
            #expect(try profile.fileNames() == ["registration.json", sessionFile, "vendor-id"].sorted())
            #expect(try Self.mode(profile.path) == 0o700, "profile directory mode")
            for name in try profile.fileNames() {
                let path = URL(fileURLWithPath: profile.path).appendingPathComponent(name).path
                #expect(try Self.mode(path) == 0o600, "mode of \(name)")
                let contents = try TouchstoneExecutable.readText(path)
                #expect(!contents.contains(DeviceCLI.password), "the password is never kept (\(name))")
                #expect(!contents.contains(DeviceCLI.pin), "the PIN is never kept (\(name))")
            }
        }
    }

    /// DESIGN.md §2: "A platform without a real biometric sensor registers no biometric key (on Linux without fprintd
    /// the device uses its PIN)". A presence prompt is not a biometric and must never produce a biometric key.
    @Test(arguments: [nil, "fprintd"] as [String?])
    func withoutASensorTheDeviceRegistersWithItsPINOnly(verifier: String?) async throws {
        try await DeviceCLI.withServer { server, client in
            try await DeviceCLI.createAccount("ana", on: client)
            let profile = try DeviceCLI.Profile(server)
            // A machine without fprintd: nothing on PATH. The profile directory exists already, too open.
            let tools = profile.scratch.path("no-tools")
            try FileManager.default.createDirectory(atPath: tools, withIntermediateDirectories: true)
            let noFprintd = ["PATH": tools]
            try FileManager.default.createDirectory(
                atPath: profile.path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])

            // No --pin: the PIN is the second line of standard input.
            let registered = try await profile.run(
                ["register", "--username", "ana", "--password-stdin"] + (verifier.map { ["--verifier", $0] } ?? []),
                input: DeviceCLI.password + "\n" + DeviceCLI.pin + "\n", environment: noFprintd)
            try #require(registered.status == 0 && !registered.timedOut, "\(registered)")
            #expect(registered.stdout.contains("with PIN only"), "\(registered)")

            let status = try await profile.status()
            #expect(status.registered && status.username == "ana")
            #expect(!status.biometric, "no biometric key without a sensor: \(status)")
            let onServer = try await DeviceCLI.serverDevice(status.deviceId, on: server)
            #expect(!onServer.biometric, "the server holds no biometric key for it")
            #expect(try Self.mode(profile.path) == 0o700, "the profile directory is made private")

            // Even a scripted "match" cannot turn this device's login into a biometric one: it asks for the PIN.
            let session = try await profile.login(["--verifier", "match"], input: DeviceCLI.pin + "\n")
            #expect(session.amr == ["pin"])
            #expect(session.deviceId == status.deviceId)
        }
    }

    /// DESIGN.md §1.2 / §6: the PIN is checked against the app's policy before anything is sent.
    @Test func malformedOrTrivialPINsAreRefusedBeforeTheEnrolment() async throws {
        try await DeviceCLI.withServer { server, client in
            try await DeviceCLI.createAccount("ana", on: client)
            let profile = try DeviceCLI.Profile(server)
            for pin in ["123456", "12", "111111", "48a915", "987654321"] {
                let refused = try await profile.run(
                    ["register", "--username", "ana", "--password-stdin", "--pin", pin, "--verifier", "match"],
                    input: DeviceCLI.password + "\n")
                expectOneErrorLine(refused, mentioning: ["PIN"])
            }
            #expect(try await !profile.status().registered)
            let files = try profile.fileNames()
            #expect(!files.contains("registration.json"), "\(files)")
            let events = try await DeviceCLI.audit(server)
            #expect(!events.contains { $0.event.hasPrefix("enrollment") }, "no enrolment was started: \(events)")
            #expect(try await DeviceCLI.serverDevices(server).isEmpty)
        }
    }

    static func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        let mode = try #require(attributes[.posixPermissions] as? NSNumber, "mode of \(path)")
        return mode.intValue & 0o777
    }
}
