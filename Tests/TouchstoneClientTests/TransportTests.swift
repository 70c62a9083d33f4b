import Foundation
import Testing
import TouchstoneClient
import TouchstoneProtocol
import TouchstoneTestSupport

@testable import TouchstoneDomain
@testable import TouchstoneHTTP
@testable import TouchstoneServer
@testable import TouchstoneStorage

/// What the SDK makes of a server it cannot reach, or of answers that are not the protocol.
@Suite("Transport failures")
struct TransportTests {
    @Test("a server that cannot be reached: transport, and nothing kept")
    func unreachable() async throws {
        let port = try FreePort.claim()
        let directory = FileManager.default.temporaryDirectory.appending(path: "touchstone-sdk-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let client = TouchstoneClient(
            server: try #require(URL(string: "http://localhost:\(port)")), clientID: LiveServer.demoApp,
            platform: .software(directory: directory, verifier: ScriptedVerifier(.match)))
        await expectError(.transport) {
            try await client.register(username: "ana", password: LiveServer.password, pin: LiveServer.pin)
        }
        #expect(!FileManager.default.fileExists(atPath: directory.path))
        // Availability does not need the server: without the policy it answers from the device alone.
        #expect(await client.availability() == .available(.fingerprint))
    }

    @Test("an error answer without a problem body (a proxy's page): transport")
    func errorWithoutProblem() async throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "touchstone-sdk-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let client = TouchstoneClient(
            server: try #require(URL(string: "http://localhost:1")), clientID: LiveServer.demoApp,
            platform: .software(
                directory: directory, verifier: ScriptedVerifier(.match),
                transport: FixedAnswerTransport(status: 502, body: "<html>Bad Gateway</html>")))
        await expectError(.transport) {
            try await client.register(username: "ana", password: LiveServer.password, pin: LiveServer.pin)
        }
    }

    @Test("a success answer that is not the protocol: transport")
    func successNotProtocol() async throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "touchstone-sdk-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let client = TouchstoneClient(
            server: try #require(URL(string: "http://localhost:1")), clientID: LiveServer.demoApp,
            platform: .software(
                directory: directory, verifier: ScriptedVerifier(.match),
                transport: FixedAnswerTransport(status: 200, body: "{\"hello\":\"world\"}")))
        await expectError(.transport) {
            try await client.register(username: "ana", password: LiveServer.password, pin: LiveServer.pin)
        }
    }

    @Test("a server URL with a trailing slash is the same issuer")
    func trailingSlash() async throws {
        try await LiveServer.run { server in
            let profile = server.profile()
            try await server.register(server.client(profile))
            let client = TouchstoneClient(
                server: try #require(URL(string: server.url.absoluteString + "/")), clientID: LiveServer.demoApp,
                platform: .software(directory: profile.directory, verifier: ScriptedVerifier(.match), deviceName: "Test Device"))
            #expect(try await client.status().registered)
            #expect(try await client.login(prompt: "Log in").amr == ["bio"])
        }
    }
}
