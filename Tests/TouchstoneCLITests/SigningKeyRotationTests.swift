import Foundation
import Testing
import TouchstoneProtocol
import TouchstoneTestSupport

/// `touchstone admin signing-key rotate` reaches a running server through its periodic key reload.
@Suite struct SigningKeyRotationTests {
    private struct Rotation: Decodable {
        var kid: String
        var activatesAt: Date
    }

    @Test func rotatedKeyIsPublishedAndTokensStillVerify() async throws {
        try await withServer { server, client in
            let ana = try await EnrolledDevice.enrol(on: server, client: client)
            // Access tokens' keys (ES256); the RS256 key of ID tokens rotates beside them.
            func accessTokenKeys() async throws -> JWKSet {
                JWKSet(keys: try await client.get("/.well-known/jwks.json").decode(JWKSet.self).keys.filter { $0.alg == "ES256" })
            }
            let before = try await accessTokenKeys()
            try #require(before.keys.count == 1, "a new server has one key: \(before.keys.map(\.kid))")
            let oldKey = before.keys[0]
            #expect(oldKey.kty == "EC" && oldKey.crv == "P-256" && oldKey.alg == "ES256" && oldKey.use == "sig")
            #expect(try AccessToken(ana.firstSession.accessToken).header.kid == oldKey.kid)

            let rotated = try await server.admin(["signing-key", "rotate", "--json"])
            try #require(rotated.status == 0, "\(rotated)")
            let rotation = try rotated.json(Rotation.self)
            #expect(rotation.kid != oldKey.kid)
            let delay = rotation.activatesAt.timeIntervalSinceNow
            #expect(delay > 540 && delay <= 600, "signs ten minutes after publication, in \(delay) s")

            // The server reads its keys again every 30 s.
            var published = before
            let deadline = Date().addingTimeInterval(45)
            while published.keys.count < 2, Date() < deadline {
                try await Task.sleep(for: .seconds(1))
                published = try await accessTokenKeys()
            }
            #expect(Set(published.keys.map(\.kid)) == [oldKey.kid, rotation.kid], "\(published.keys.map(\.kid))")
            let newKey = try #require(published.keys.first { $0.kid == rotation.kid })
            #expect(newKey.kty == "EC" && newKey.crv == "P-256" && newKey.alg == "ES256" && newKey.use == "sig")

            // Tokens from before still work, and new ones are still signed with the old key until it retires.
            #expect(try await ana.devices(accessToken: ana.firstSession.accessToken).status == 200)
            #expect(try AccessToken.signatureVerifies(ana.firstSession.accessToken, with: oldKey))
            let session = try await ana.session()
            let token = try AccessToken(session.accessToken)
            #expect(token.header.kid == oldKey.kid)
            #expect(try AccessToken.signatureVerifies(session.accessToken, with: oldKey))
            #expect(try !AccessToken.signatureVerifies(session.accessToken, with: newKey))
            #expect(try await ana.devices(accessToken: session.accessToken).status == 200)
        }
    }
}
