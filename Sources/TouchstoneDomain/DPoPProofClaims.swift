import TouchstoneCrypto

/// The claims of a DPoP proof (RFC 9449 §4.2).
package struct DPoPProofClaims: Decodable, Sendable {
    package var jti: String
    package var htm: String
    package var htu: String
    package var iat: Int64
    /// base64url SHA-256 of the access token presented with the proof (at a protected resource).
    package var ath: String?
}

/// What a DPoP proof must say for the request it came with.
package struct DPoPExpectations: Sendable {
    /// The request's method.
    package var method: String
    /// ISSUER and the request's path, without query.
    package var url: String
    /// `ath` of the access token presented with the proof; `nil` where none is (the token endpoint, PAR).
    package var accessTokenHash: String?
    /// The current time, NumericDate.
    package var now: Int64
}

extension DPoPProofClaims: JWSClaims {
    package static let requiredType: String? = "dpop+jwt"
    /// How old a proof may be.
    static let maximumAge: Int64 = 60
    /// How far ahead `iat` may be.
    static let clockSkew: Int64 = 10

    package func verify(_ expected: DPoPExpectations) throws(JWSError) {
        guard !jti.isEmpty else { throw JWSError("jti is empty") }
        guard htm == expected.method else { throw JWSError("htm is not the request's method") }
        // RFC 9449 §4.3: the URI without its query and fragment.
        let uri = htu.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
            .split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
        guard uri == expected.url else { throw JWSError("htu is not the request's URI") }
        guard iat >= expected.now - Self.maximumAge, iat <= expected.now + Self.clockSkew else {
            throw JWSError("iat is stale or too far ahead")
        }
        if let hash = expected.accessTokenHash, ath != hash { throw JWSError("ath is not the access token's hash") }
    }
}
