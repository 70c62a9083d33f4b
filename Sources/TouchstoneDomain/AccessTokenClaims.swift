import TouchstoneCrypto
import TouchstoneProtocol
import TouchstoneStorage

/// The claims of a server-signed access token (`typ: at+jwt`).
package struct AccessTokenClaims: Codable, Sendable, Equatable {
    package struct Confirmation: Codable, Sendable, Equatable {
        /// RFC 7638 thumbprint of the device key the session is bound to.
        package var jkt: String
    }

    package var iss: String
    package var aud: String
    package var sub: String
    var sid: String
    package var did: String?
    package var amr: [AuthenticationMethod]
    package var acr: AssuranceLevel
    package var auth_time: Int64
    package var scope: String
    package var cnf: Confirmation?
    package var iat: Int64
    package var exp: Int64
    package var jti: String
    /// The granted `authorization_details` (RFC 9396 §9.1), as the client sent them.
    package var authorization_details: JSONValue? = nil
    /// The transaction hash the approving device signed (CIBA).
    package var txn: String? = nil
}

extension AccessTokenClaims: JWSClaims {
    package static let requiredType: String? = "at+jwt"

    /// Issued by this server (`iss`) and not expired at `expectations.now`.
    package func verify(_ expectations: ServerTokenExpectations) throws(JWSError) {
        guard iss == expectations.issuer else { throw JWSError("iss is not this server") }
        guard expectations.now < exp else { throw JWSError("expired") }
    }
}

extension AccessTokenClaims: HandWrittenJSON {
    /// In sorted order, leaving out `did`, `cnf`, `authorization_details` and `txn` when absent, as the synthesized
    /// `Encodable` does (`authorization_details` in its RFC 8785 form).
    package func writeJSON(into object: inout JSONObjectWriter) {
        object.member("acr", acr.rawValue)
        object.member("amr", amr.map(\.rawValue))
        object.member("aud", aud)
        object.member("auth_time", auth_time)
        if let authorization_details, let json = try? CanonicalJSON.bytes(of: authorization_details) {
            object.member("authorization_details", json: json)
        }
        if let cnf { object.member("cnf") { $0.member("jkt", cnf.jkt) } }
        if let did { object.member("did", did) }
        object.member("exp", exp)
        object.member("iat", iat)
        object.member("iss", iss)
        object.member("jti", jti)
        object.member("scope", scope)
        object.member("sid", sid)
        object.member("sub", sub)
        if let txn { object.member("txn", txn) }
    }
}
