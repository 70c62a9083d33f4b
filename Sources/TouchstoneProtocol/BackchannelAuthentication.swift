/// `POST /oauth2/bc-authorize` answer (OpenID CIBA Core 1.0 §7.3).
public struct BackchannelAuthentication: Codable, Sendable, Equatable {
    /// The CIBA grant type at the token endpoint (§10.1).
    public static let grantType = "urn:openid:params:grant-type:ciba"

    public var authRequestId: String
    public var expiresIn: Int
    /// Seconds to wait between polls.
    public var interval: Int

    public init(authRequestId: String, expiresIn: Int, interval: Int) {
        self.authRequestId = authRequestId
        self.expiresIn = expiresIn
        self.interval = interval
    }

    enum CodingKeys: String, CodingKey {
        case authRequestId = "auth_req_id"
        case expiresIn = "expires_in"
        case interval
    }
}
