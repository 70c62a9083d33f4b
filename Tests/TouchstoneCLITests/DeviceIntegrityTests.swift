import Foundation
import Testing
import TouchstoneProtocol
import TouchstoneTestSupport

/// DESIGN.md §1.1: a compromised device stops with `deviceCompromised` before anything else.
@Suite struct DeviceIntegrityTests {
    private static let register = [
        "register", "--username", "ana", "--password-stdin", "--pin", DeviceCLI.pin, "--verifier", "match",
    ]

    @Test func aCompromisedDeviceStopsBeforeAnythingIsSent() async throws {
        // Where nothing listens, the integrity gate answers first: not "cannot reach".
        let closed = try DeviceCLI.Profile(server: "http://localhost:\(try DeviceCLI.freeLoopbackPort())")
        let offline = try await closed.run(Self.register + ["--compromised"], input: DeviceCLI.password + "\n")
        expectOneErrorLine(offline, mentioning: ["compromised"])
        #expect(!offline.stderr.contains("cannot reach"), "\(offline)")
        let closedFiles = try closed.fileNames()
        #expect(closedFiles.isEmpty, "nothing is written: \(closedFiles)")
        // The control: without --compromised the same command does try to reach the server.
        let unreachable = try await closed.run(Self.register, input: DeviceCLI.password + "\n")
        expectOneErrorLine(unreachable, mentioning: ["cannot reach"])

        try await DeviceCLI.withServer { server, client in
            try await DeviceCLI.createAccount("ana", on: client)
            let profile = try DeviceCLI.Profile(server)
            let refused = try await profile.run(Self.register + ["--compromised"], input: DeviceCLI.password + "\n")
            expectOneErrorLine(refused, mentioning: ["compromised"])
            let files = try profile.fileNames()
            #expect(files.isEmpty, "nothing is written: \(files)")
            let events = try await DeviceCLI.audit(server)
            #expect(events.map(\.event) == ["account.create"], "no event from the device: \(events)")
            #expect(try await DeviceCLI.serverDevices(server).isEmpty)
        }
    }

    @Test
    func anUnreachableServerIsNamedOnce() async throws {
        let server = "http://localhost:\(try DeviceCLI.freeLoopbackPort())"
        let closed = try DeviceCLI.Profile(server: server)
        let unreachable = try await closed.run(
            ["register", "--username", "ana", "--password-stdin", "--pin", DeviceCLI.pin, "--verifier", "match"],
            input: DeviceCLI.password + "\n")
        expectOneErrorLine(unreachable, mentioning: ["cannot reach \(server)"])
        #expect(unreachable.stderr.components(separatedBy: "cannot reach").count == 2, "\(unreachable)")
    }
}
