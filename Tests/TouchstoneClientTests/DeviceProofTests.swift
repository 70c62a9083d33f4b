import Foundation
import Testing
import TouchstoneClient
import TouchstoneCrypto
import TouchstoneProtocol

/// A device session's access token is accepted at Touchstone's API only with a `Touchstone-Device-Proof` of each
/// request, signed by the device key (PROTOCOL "Access tokens at Touchstone's own API").
@Suite("Device proof on Bearer calls")
struct DeviceProofTests {
    @Test("every Bearer request carries a proof of that request (htm, htu, fresh jti) by the device key; the server accepts each")
    func everyBearerRequestIsProved() async throws {
        try await LiveServer.run { server in
            let profile = server.profile()
            let transport = server.recorder()
            let client = server.client(profile, transport: transport)
            let deviceId = try #require(try await server.register(client).deviceId)
            let deviceKey = try #require(try await profile.keyStore.registration()?.deviceKey.publicKey)
            try await client.stepUp(password: LiveServer.password)
            try await client.changePIN("739164")
            try await client.optOut()
            try await client.logout()
            #expect(try await client.login(pin: "739164").amr == ["pin"])
            try await client.deregister()

            let bearer = transport.sent.filter { $0.headers["Authorization"]?.hasPrefix("Bearer ") == true }
            #expect(
                bearer.map { "\($0.method) \($0.path)" } == [
                    "POST /v1/step-up", "PUT /v1/devices/\(deviceId)/pin", "DELETE /v1/devices/\(deviceId)/biometric-key",
                    "DELETE /v1/sessions/current", "DELETE /v1/devices/\(deviceId)",
                ])
            var jtis: Set<String> = []
            for request in bearer {
                let proof = try #require(request.headers[TouchstoneHeader.deviceProof], "\(request.method) \(request.path)")
                let claims = try verifiedClaims(
                    proof, as: RequestClaims.self, by: deviceKey, issuer: deviceId, audience: server.url)
                #expect(claims.htm == request.method)
                #expect(claims.htu == server.url.absoluteString + request.path)
                jtis.insert(claims.jti)
            }
            #expect(jtis.count == bearer.count, "a fresh jti for each request")
        }
    }
}
