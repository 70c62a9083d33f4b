import JWTKit
import TouchstoneProtocol
import TouchstoneStorage

/// The claims of a server-signed access token (`typ: at+jwt`).
package struct AccessTokenClaims: JWTPayload, Equatable {
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

    /// Time is checked against the injected clock by ``TokenSigner``.
    package func verify(using _: some JWTAlgorithm) async throws {}
}

extension AccessTokenClaims: HandWrittenJSON {
    /// In sorted order, leaving out `did` and `cnf` when absent, as the synthesized `Encodable` does.
    package func writeJSON(into object: inout JSONObjectWriter) {
        object.member("acr", acr.rawValue)
        object.member("amr", amr.map(\.rawValue))
        object.member("aud", aud)
        object.member("auth_time", auth_time)
        if let cnf { object.member("cnf") { $0.member("jkt", cnf.jkt) } }
        if let did { object.member("did", did) }
        object.member("exp", exp)
        object.member("iat", iat)
        object.member("iss", iss)
        object.member("jti", jti)
        object.member("scope", scope)
        object.member("sid", sid)
        object.member("sub", sub)
    }
}
