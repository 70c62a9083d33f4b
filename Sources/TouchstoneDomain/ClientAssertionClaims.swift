import TouchstoneCrypto

/// The claims of a client assertion (`private_key_jwt`, RFC 7523 §3, OpenID Connect Core §9).
package struct ClientAssertionClaims: Decodable, Sendable {
    package var iss: String
    package var sub: String
    /// `aud` as sent: one string, or the strings of an array.
    package var aud: [String]
    /// Whether `aud` was a single string (FAPI 2.0 SP §5.3.2.1 asks for exactly that).
    package var audIsString: Bool
    package var exp: Int64
    package var iat: Int64?
    package var nbf: Int64?
    package var jti: String

    private enum CodingKeys: String, CodingKey {
        case iss, sub, aud, exp, iat, nbf, jti
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        iss = try container.decode(String.self, forKey: .iss)
        sub = try container.decode(String.self, forKey: .sub)
        if let single = try? container.decode(String.self, forKey: .aud) {
            aud = [single]
            audIsString = true
        } else {
            aud = try container.decode([String].self, forKey: .aud)
            audIsString = false
        }
        exp = try container.decode(Int64.self, forKey: .exp)
        iat = try container.decodeIfPresent(Int64.self, forKey: .iat)
        nbf = try container.decodeIfPresent(Int64.self, forKey: .nbf)
        jti = try container.decode(String.self, forKey: .jti)
    }
}

/// What a client assertion must say where it is received.
package struct ClientAssertionExpectations: Sendable {
    /// The client the assertion must be of (`iss` and `sub`).
    package var clientId: String
    /// The server's ISSUER.
    package var issuer: String
    /// The URLs `aud` may also name for a client without `--fapi`: the token endpoint's and the receiving endpoint's.
    package var endpointURLs: [String]
    /// A `--fapi` client: `aud` must be exactly ISSUER, as a string.
    package var fapi: Bool
    /// The current time, NumericDate.
    package var now: Int64
}

extension ClientAssertionClaims: JWSClaims {
    package static let requiredType: String? = nil
    /// The longest `exp` may lie after `iat` (or after now, without `iat`).
    static let maximumLifetime: Int64 = 300
    /// How far ahead `iat` and `nbf` may be.
    static let clockSkew: Int64 = 10

    package func verify(_ expected: ClientAssertionExpectations) throws(JWSError) {
        guard iss == expected.clientId, sub == expected.clientId else { throw JWSError("iss and sub must be the client") }
        if expected.fapi {
            guard audIsString, aud == [expected.issuer] else { throw JWSError("aud must be exactly the issuer") }
        } else {
            let accepted = [expected.issuer] + expected.endpointURLs
            guard aud.contains(where: accepted.contains) else { throw JWSError("aud names neither issuer nor endpoint") }
        }
        guard expected.now < exp else { throw JWSError("expired") }
        guard exp - (iat ?? expected.now) <= Self.maximumLifetime else { throw JWSError("exp too far after iat") }
        guard (iat ?? expected.now) <= expected.now + Self.clockSkew, (nbf ?? expected.now) <= expected.now + Self.clockSkew
        else { throw JWSError("iat or nbf too far ahead") }
        guard !jti.isEmpty else { throw JWSError("jti is empty") }
    }
}
