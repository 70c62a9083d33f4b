/// How an OAuth client identified itself at the token, PAR, backchannel or revocation endpoint (RFC 6749 §2.3.1,
/// RFC 7523 §2.2).
package struct ClientCredentials: Sendable, Equatable {
    package enum Method: Sendable, Equatable {
        /// `client_secret_basic`: the `Authorization: Basic` header.
        case basic
        /// `client_secret_post`: `client_secret` in the form.
        case post
        /// `private_key_jwt`: `client_assertion` signed with one of the client's keys.
        case privateKeyJWT(assertion: String)
        /// A public client: `client_id` alone.
        case none
    }

    package var clientId: String?
    package var secret: String?
    package var method: Method
    /// The URLs a client assertion's `aud` may name besides ISSUER (clients without `--fapi`): the token endpoint's and
    /// the receiving endpoint's.
    package var endpointURLs: [String]

    package init(clientId: String?, secret: String?, method: Method, endpointURLs: [String] = []) {
        self.clientId = clientId
        self.secret = secret
        self.method = method
        self.endpointURLs = endpointURLs
    }
}
