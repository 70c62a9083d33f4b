import Foundation
import TouchstoneCrypto
import TouchstoneProtocol
import TouchstoneStorage

/// Verifies DPoP proofs (RFC 9449 §4.3) and spends their `jti`: at the token endpoint, PAR and userinfo.
struct DPoPCheck: Sendable {
    let store: any ProviderStore
    let clock: any WallClock

    /// How long a spent `jti` is kept: longer than a proof is accepted.
    static let jtiLifetime: TimeInterval = 300

    /// The RFC 7638 thumbprint of the key that signed `proof`, once the proof verifies and its `jti` is spent.
    /// - Parameter accessToken: the access token presented with the proof, whose hash `ath` must be (userinfo).
    /// - Throws: `invalid_dpop_proof` for a proof that is not a `dpop+jwt` of ES256, PS256 or EdDSA with a public
    ///   `jwk` that verifies it, names another method or URI, is stale or ahead, lacks the token's `ath`, or whose `jti`
    ///   was spent.
    func verify(_ proof: String, for request: DPoPRequest, accessToken: String? = nil) async throws -> String {
        let refused = OAuthError(.invalidDPoPProof, "the DPoP proof is not valid")
        let now = clock.now()
        let expectations = DPoPExpectations(
            method: request.method, url: request.url, accessTokenHash: accessToken.map(Self.accessTokenHash),
            now: Int64(now.timeIntervalSince1970))
        guard let jws = try? CompactJWS(proof), let jwk = jws.header.jwk,
            let publicKey = try? DevicePublicKey(jwk: jwk), let key = try? JWSKey(publicKey, rsaAlgorithms: [.ps256]),
            let claims = try? jws.verify(as: DPoPProofClaims.self, with: key, expecting: expectations)
        else { throw refused }
        let spent = "dpop:\(publicKey.thumbprint):\(claims.jti)"
        guard try await store.spendJTI(spent, expiresAt: now.addingTimeInterval(Self.jtiLifetime), now: now) else {
            throw refused
        }
        return publicKey.thumbprint
    }

    /// `ath`: base64url of SHA-256 of the access token.
    static func accessTokenHash(_ token: String) -> String {
        SecretDigest.sha256(token)
    }
}
