import JWTKit
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
    package var amr: [String]
    package var acr: String
    package var auth_time: Int64
    package var scope: String
    package var cnf: Confirmation?
    package var iat: Int64
    package var exp: Int64
    package var jti: String

    /// Time is checked against the injected clock by ``TokenSigner``.
    package func verify(using _: some JWTAlgorithm) async throws {}
}
