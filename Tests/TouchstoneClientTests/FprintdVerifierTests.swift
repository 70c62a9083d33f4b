import Foundation
import Testing
import TouchstoneClient
import TouchstoneProtocol

@testable import TouchstoneDomain
@testable import TouchstoneHTTP
@testable import TouchstoneServer
@testable import TouchstoneStorage

/// The Linux fingerprint verifier, driven through stand-in fprintd commands on `PATH`.
@Suite("FprintdVerifier", .serialized)
struct FprintdVerifierTests {
    static let enrolled = (output: "Fingerprints for user ana on Fake Reader (press):\n - #0: right-index-finger", status: Int32(0))
    static let match = (output: "Verify started!\nVerifying: right-index-finger\nVerify result: verify-match (done)", status: Int32(0))
    static let noMatch = (output: "Verify started!\nVerifying: right-index-finger\nVerify result: verify-no-match (done)", status: Int32(1))
    static let noDevices = (output: "No devices available", status: Int32(1))
    static let noFingers = (output: "User ana has no fingers enrolled for Fake Reader.", status: Int32(1))

    @Test("without fprintd-verify and fprintd-list on the search path: no fprintd verifier, and the device has no biometrics")
    func absent() async throws {
        try await LiveServer.run { server in
            let empty = server.scratch.appending(path: "empty-bin")
            try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
            let profile = server.profile()
            // The search path is given, never set in the environment: other tests start processes meanwhile.
            let verifier = FprintdVerifier(searchPath: FprintdStandIn.path(first: empty))
            #expect(verifier == nil)
            let platform = Platform.software(
                directory: profile.directory, verifier: verifier ?? NoBiometrics(), deviceName: "Test Device")
            let client = TouchstoneClient(server: server.url, clientID: LiveServer.demoApp, platform: platform)
            #expect(await client.availability() == .unavailable(.biometryNotAvailable))
            let session = try await server.register(client)
            #expect(session.amr == ["pin"])
            #expect(try await client.status().biometric == false)
        }
    }

    @Test("with only one of the two commands on PATH: no fprintd verifier", arguments: ["fprintd-list", "fprintd-verify"])
    func halfInstalled(missing: String) async throws {
        try await withScratchDirectory { scratch in
            let standIn = try FprintdStandIn(in: scratch, list: Self.enrolled, verify: Self.match)
            try FileManager.default.removeItem(at: standIn.directory.appending(path: missing))
            #expect(standIn.verifier() == nil)
        }
    }

    @Test("an enrolled finger that matches: available, and registration and login use the biometric key")
    func match() async throws {
        try await LiveServer.run { server in
            let standIn = try FprintdStandIn(in: server.scratch, list: Self.enrolled, verify: Self.match)
            let verifier = try #require(standIn.verifier())
            #expect(verifier.user == FprintdStandIn.user)
            #expect(await verifier.biometryState() == .available(.fingerprint))
            let client = server.client(server.profile(), verifier: verifier)
            #expect(await client.availability() == .available(.fingerprint))
            let registered = try await server.register(client)
            #expect(registered.amr == ["bio"])
            #expect(try await client.status().biometric)
            #expect(try await client.login(prompt: "Log in").amr == ["bio"])
        }
    }

    @Test("a finger that does not match: biometryFailed, and the login is refused before anything is sent")
    func noMatch() async throws {
        try await LiveServer.run { server in
            let standIn = try FprintdStandIn(in: server.scratch, list: Self.enrolled, verify: Self.noMatch)
            let verifier = try #require(standIn.verifier())
            await expectError(.biometryFailed) { try await verifier.verify(prompt: "Log in") }
            let profile = server.profile()
            try await server.register(server.client(profile))
            let transport = server.recorder()
            let client = server.client(profile, verifier: verifier, transport: transport)
            await expectError(.biometryFailed) { try await client.login(prompt: "Log in") }
            #expect(transport.requests.isEmpty)
        }
    }

    @Test("no fingerprint reader: noHardware, biometryNotAvailable, and registration with the PIN only")
    func noDevices() async throws {
        try await LiveServer.run { server in
            let standIn = try FprintdStandIn(in: server.scratch, list: Self.noDevices, verify: Self.noDevices)
            let verifier = try #require(standIn.verifier())
            #expect(await verifier.biometryState() == .noHardware)
            await expectError(.biometryNotAvailable) { try await verifier.verify(prompt: "Log in") }
            let client = server.client(server.profile(), verifier: verifier)
            #expect(await client.availability() == .unavailable(.biometryNotAvailable))
            #expect(try await server.register(client).amr == ["pin"])
            #expect(try await client.status().biometric == false)
        }
    }

    @Test("no finger enrolled: notEnrolled, biometryNotEnrolled")
    func noFingers() async throws {
        try await LiveServer.run { server in
            let standIn = try FprintdStandIn(in: server.scratch, list: Self.noFingers, verify: Self.noFingers)
            let verifier = try #require(standIn.verifier())
            #expect(await verifier.biometryState() == .notEnrolled)
            await expectError(.biometryNotEnrolled) { try await verifier.verify(prompt: "Log in") }
            let client = server.client(server.profile(), verifier: verifier)
            #expect(await client.availability() == .unavailable(.biometryNotEnrolled))
        }
    }

    @Test("fprintd-list that succeeds but lists no finger: notEnrolled")
    func listWithoutFinger() async throws {
        try await withScratchDirectory { scratch in
            let standIn = try FprintdStandIn(
                in: scratch, list: (output: "", status: 0),
                verify: Self.match)
            let verifier = try #require(standIn.verifier())
            #expect(await verifier.biometryState() == .notEnrolled)
        }
    }

    @Test(
        "what fprintd-verify answers decides the error",
        arguments: [
            ("Verify result: verify-disconnected (done)", Int32(1), TouchstoneError.Code.biometryNotAvailable),
            ("Verify result: verify-unknown-error (done)", 1, .biometryNotAvailable),
            ("Verify result: verify-match (done)", 1, .biometryFailed),
            ("Verify result: verify-retry-scan", 1, .biometryFailed),
        ])
    func verifyAnswers(output: String, status: Int32, code: TouchstoneError.Code) async throws {
        try await withScratchDirectory { scratch in
            let standIn = try FprintdStandIn(
                in: scratch, list: Self.enrolled, verify: (output: output, status: status))
            let verifier = try #require(standIn.verifier())
            await expectError(code) { try await verifier.verify(prompt: "Log in") }
        }
    }

    @Test("commands that disappear after the verifier found them: noHardware, biometryNotAvailable")
    func commandsDisappear() async throws {
        try await withScratchDirectory { scratch in
            let standIn = try FprintdStandIn(in: scratch, list: Self.enrolled, verify: Self.match)
            let verifier = try #require(standIn.verifier())
            try standIn.remove()
            #expect(await verifier.biometryState() == .noHardware)
            await expectError(.biometryNotAvailable) { try await verifier.verify(prompt: "Log in") }
        }
    }
}
