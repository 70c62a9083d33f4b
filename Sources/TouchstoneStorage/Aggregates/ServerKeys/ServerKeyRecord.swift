import Foundation

/// A token-signing key of the server.
package struct ServerKeyRecord: Sendable, Equatable {
    package var kid: String
    /// `ES256` (access tokens, receipts, ES256 ID tokens) or `RS256` (ID tokens by default).
    package var algorithm: String
    /// base64url of the private key: P-256's raw representation, RSA's PKCS #8 DER.
    package var privateKey: String
    package var createdAt: Date
    package var activatesAt: Date
    package var retiredAt: Date?

    package init(
        kid: String, algorithm: String = "ES256", privateKey: String, createdAt: Date, activatesAt: Date,
        retiredAt: Date? = nil
    ) {
        self.kid = kid
        self.algorithm = algorithm
        self.privateKey = privateKey
        self.createdAt = createdAt
        self.activatesAt = activatesAt
        self.retiredAt = retiredAt
    }
}
