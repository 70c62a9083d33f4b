import Foundation
import Testing
import TouchstoneProtocol
import TouchstoneTestSupport

/// The whole device story over HTTP only: account, enrolment, biometric and PIN login, refresh, logout.
@Suite struct LoginStoryTests {
    @Test(arguments: TestDevice.Algorithm.allCases)
    func enrolLoginRefreshLogout(algorithm: TestDevice.Algorithm) async throws {
        try await withServer { server, client in
            let ana = try await EnrolledDevice.enrol(on: server, client: client, algorithm: algorithm)
            #expect(!ana.deviceId.isEmpty)
            #expect(ana.firstSession.deviceId == ana.deviceId)
            #expect(ana.firstSession.acr == "aal2")

            let jwksResponse = try await client.get("/.well-known/jwks.json")
            try #require(jwksResponse.status == 200, "\(jwksResponse)")
            #expect(jwksResponse.header("Cache-Control") == "max-age=300")
            let jwks = try jwksResponse.decode(JWKSet.self)

            // Biometric login.
            let bioResponse = try await ana.login(assertion: try await ana.assertion())
            try #require(bioResponse.status == 201, "\(bioResponse)")
            #expect(bioResponse.header("Cache-Control") == "no-store")
            let bio = try bioResponse.decode(Session.self)
            #expect(bio.amr == ["bio"])
            #expect(bio.acr == "aal2")
            #expect(bio.tokenType == "Bearer")
            #expect(bio.scope == "session")
            #expect(bio.userId == ana.userId)
            #expect(bio.deviceId == ana.deviceId)
            #expect(bio.expiresIn == 600)
            try await expectAccessToken(bio.accessToken, amr: ["bio"], of: ana, server: server, jwks: jwks)

            // PIN login with the device key.
            let pinResponse = try await ana.login(assertion: try await ana.assertion(pin: EnrolledDevice.pin))
            try #require(pinResponse.status == 201, "\(pinResponse)")
            #expect(pinResponse.header("Cache-Control") == "no-store")
            let pin = try pinResponse.decode(Session.self)
            #expect(pin.amr == ["pin"])
            #expect(pin.acr == "aal2")
            #expect(pin.deviceId == ana.deviceId)
            try await expectAccessToken(pin.accessToken, amr: ["pin"], of: ana, server: server, jwks: jwks)
            #expect(try AccessToken(pin.accessToken).claims.sid != AccessToken(bio.accessToken).claims.sid)

            // Refresh: the refresh token alone is not enough; with the device's request token it rotates.
            let unsigned = try await ana.refresh(pin.refreshToken, signed: false)
            expectProblem(unsigned, status: 401, code: "device_proof_required")
            let refreshedResponse = try await ana.refresh(pin.refreshToken)
            try #require(refreshedResponse.status == 200, "\(refreshedResponse)")
            #expect(refreshedResponse.header("Cache-Control") == "no-store")
            let refreshed = try refreshedResponse.decode(Session.self)
            #expect(refreshed.refreshToken != pin.refreshToken)
            #expect(refreshed.accessToken != pin.accessToken)
            #expect(refreshed.amr == ["pin"])
            #expect(refreshed.deviceId == ana.deviceId)
            try await expectAccessToken(refreshed.accessToken, amr: ["pin"], of: ana, server: server, jwks: jwks)
            #expect(try AccessToken(refreshed.accessToken).claims.sid == AccessToken(pin.accessToken).claims.sid)

            // The access token works until logout, each request with the device's proof of it.
            let unproved = try await client.get("/v1/devices", headers: ["Authorization": "Bearer \(refreshed.accessToken)"])
            expectProblem(unproved, status: 401, code: "device_proof_required")
            let listed = try await ana.devices(accessToken: refreshed.accessToken)
            try #require(listed.status == 200, "\(listed)")
            let devices = try listed.decode(DeviceList.self).devices
            #expect(devices.map(\.deviceId) == [ana.deviceId])
            #expect(devices.first?.current == true)
            #expect(devices.first?.biometric == true)

            // Logout ends this session only.
            let logout = try await ana.logout(accessToken: refreshed.accessToken)
            #expect(logout.status == 204, "\(logout)")
            let afterLogout = try await ana.devices(accessToken: refreshed.accessToken)
            #expect(afterLogout.status == 401, "\(afterLogout)")
            let refreshAfterLogout = try await ana.refresh(refreshed.refreshToken)
            expectProblem(refreshAfterLogout, status: 401, code: "refresh_token_invalid")
            let otherSession = try await ana.devices(accessToken: bio.accessToken)
            #expect(otherSession.status == 200, "the biometric session outlives the PIN session's logout: \(otherSession)")
        }
    }

    /// Checks an access token's header, claims and signature against the device and the server's JWKS.
    private func expectAccessToken(
        _ compact: String, amr: [String], of ana: EnrolledDevice, server: ServerProcess, jwks: JWKSet
    ) async throws {
        let token = try AccessToken(compact)
        #expect(token.header.typ == "at+jwt")
        #expect(token.header.alg == "ES256")
        let key = try #require(jwks.keys.first { $0.kid == token.header.kid }, "kid \(token.header.kid) not in the JWKS")
        #expect(try AccessToken.signatureVerifies(compact, with: key))
        #expect(try !AccessToken.signatureVerifies(token.tamperedCopy(), with: key))

        let claims = token.claims
        let now = Int64(Date().timeIntervalSince1970)
        #expect(claims.iss == server.issuer)
        #expect(claims.aud == ana.clientId)
        #expect(claims.sub == ana.userId)
        #expect(claims.did == ana.deviceId)
        #expect(claims.amr == amr)
        #expect(claims.acr == "aal2")
        #expect(claims.scope == "session")
        #expect(claims.cnf == AccessToken.Confirmation(jkt: ana.device.deviceKey.publicKey.thumbprint))
        #expect(!claims.sid.isEmpty)
        #expect(!claims.jti.isEmpty)
        #expect(abs(claims.iat - now) <= 60)
        #expect(claims.exp - claims.iat == 600)
        #expect(claims.auth_time <= claims.iat && claims.iat - claims.auth_time <= 60)
    }
}
