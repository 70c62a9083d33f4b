/// How an OAuth client identified itself at the token, PAR or revocation endpoint (RFC 6749 §2.3.1).
package struct ClientCredentials: Sendable, Equatable {
    package enum Method: Sendable, Equatable {
        /// `client_secret_basic`: the `Authorization: Basic` header.
        case basic
        /// `client_secret_post`: `client_secret` in the form.
        case post
        /// A public client: `client_id` alone.
        case none
    }

    package var clientId: String?
    package var secret: String?
    package var method: Method

    package init(clientId: String?, secret: String?, method: Method) {
        self.clientId = clientId
        self.secret = secret
        self.method = method
    }
}
