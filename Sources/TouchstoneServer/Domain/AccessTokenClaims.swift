import JWTKit

/// The claims of a server-signed access token (`typ: at+jwt`).
struct AccessTokenClaims: JWTPayload, Equatable {
    struct Confirmation: Codable, Sendable, Equatable {
        /// RFC 7638 thumbprint of the device key the session is bound to.
        var jkt: String
    }

    var iss: String
    var aud: String
    var sub: String
    var sid: String
    var did: String?
    var amr: [String]
    var acr: String
    var auth_time: Int64
    var scope: String
    var cnf: Confirmation?
    var iat: Int64
    var exp: Int64
    var jti: String

    /// Time is checked against the injected clock by ``TokenSigner``.
    func verify(using _: some JWTAlgorithm) async throws {}
}
