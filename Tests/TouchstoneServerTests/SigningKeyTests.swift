import Foundation
import HTTPTypes
import Logging
import Testing
import TouchstoneProtocol
import TouchstoneTestSupport

@testable import TouchstoneDomain
@testable import TouchstoneHTTP
@testable import TouchstoneServer
@testable import TouchstoneStorage

@Suite struct SigningKeyTests {
    /// The published ES256 keys (access tokens'), leaving out the RS256 key of ID tokens.
    private func esKids(_ h: Harness) async throws -> [String] {
        try h.decode(JWKSet.self, try await h.send(.get, "/.well-known/jwks.json")).keys.filter { $0.alg == "ES256" }
            .map(\.kid)
    }

    @Test func jwksPublishesTheSigningKey() async throws {
        try await Harness.run { h in
            let response = try await h.send(.get, "/.well-known/jwks.json")
            #expect(response.status == .ok)
            #expect(response.headers[.cacheControl] == "max-age=300")
            // One key signs access tokens (ES256); the RSA key is for ID tokens.
            let jwks = try h.decode(JWKSet.self, response).keys.filter { $0.alg == "ES256" }
            #expect(jwks.count == 1)
            let enrolled = try await h.enroll(try await TestDevice())
            #expect(try jwtParts(enrolled.session.accessToken).header["kid"] as? String == jwks.first?.kid)
        }
    }

    @Test func rotationPublishesAtOnceAndSignsTenMinutesLater() async throws {
        try await Harness.run { h in
            let device = try await TestDevice()
            let enrolled = try await h.enroll(device)
            let oldKid = try jwtParts(enrolled.session.accessToken).header["kid"] as? String
            let next = try await TokenSigner.rotate(store: h.store, now: h.now)
            h.clock.advance(by: 30)
            let published = try await esKids(h)
            #expect(Set(published) == Set([oldKid, next.kid].compactMap { $0 }))
            let before = try h.decode(Session.self, try await h.login(device, deviceId: enrolled.deviceId))
            #expect(try jwtParts(before.accessToken).header["kid"] as? String == oldKid)

            h.clock.advance(by: 580)
            let after = try h.decode(Session.self, try await h.login(device, deviceId: enrolled.deviceId))
            #expect(try jwtParts(after.accessToken).header["kid"] as? String == next.kid)
            // Tokens of the retired key stay valid while they live, and the key stays published.
            #expect(try await h.send(.get, "/v1/devices", headers: h.bearer(before)).status == .ok)
            let stillPublished = try await esKids(h)
            #expect(stillPublished.contains(oldKid ?? ""))
            // Long after retirement it is gone.
            h.clock.advance(by: 1_210)
            let later = try await esKids(h)
            #expect(later == [next.kid])
        }
    }

    @Test func twoInstancesOnOneDatabaseShareTheirKeys() async throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "touchstone-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appending(path: "db.sqlite").path
        let settings = try ServerSettings(issuer: Harness.issuer)
        let logger = Logger(label: "test")
        let first = try await TouchstoneRuntime.open(database: .sqlite(path: path), settings: settings, logger: logger)
        let second = try await TouchstoneRuntime.open(database: .sqlite(path: path), settings: settings, logger: logger)
        try await first.run {
            try await second.run {
                let firstKeys = try await first.environment.signer.jwks().keys
                let secondKeys = try await second.environment.signer.jwks().keys
                // One key of each algorithm: ES256 for access tokens, RS256 for ID tokens; made once for both.
                #expect(firstKeys.map(\.alg).sorted() == ["ES256", "RS256"])
                #expect(firstKeys == secondKeys)
            }
        }
    }
}
