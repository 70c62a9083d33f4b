import Foundation
import Testing
import TouchstoneClient
import TouchstoneProtocol

@testable import TouchstoneDomain
@testable import TouchstoneHTTP
@testable import TouchstoneServer
@testable import TouchstoneStorage

/// The software key store: keys in a directory only its owner can read.
@Suite("Profile files")
struct ProfileFilesTests {
    @Test("the profile directory is 0700 and every file in it 0600")
    func modes() async throws {
        try await LiveServer.run { server in
            let profile = server.profile()
            try await server.register(server.client(profile))
            #expect(try profile.mode() == 0o700)
            #expect(profile.files.contains("registration.json"))
            #expect(profile.files.contains("vendor-id"))
            #expect(profile.files.contains { $0.hasPrefix("session-") })
            for name in profile.files {
                #expect(try profile.mode(name) == 0o600, "\(name)")
            }
        }
    }

    @Test("a profile directory made with looser permissions is tightened to 0700")
    func looseDirectoryTightened() async throws {
        try await LiveServer.run { server in
            let profile = server.profile()
            try FileManager.default.createDirectory(
                at: profile.directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
            try await server.register(server.client(profile))
            #expect(try profile.mode() == 0o700)
        }
    }

    @Test("files rewritten later (a refresh, an opt-out) stay 0600")
    func rewrittenFiles() async throws {
        try await LiveServer.run { server in
            let profile = server.profile()
            let client = server.client(profile)
            try await server.register(client)
            try await client.refresh()
            try await client.optOut()
            for name in profile.files {
                #expect(try profile.mode(name) == 0o600, "\(name)")
            }
        }
    }

}
