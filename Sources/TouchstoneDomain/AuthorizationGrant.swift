import TouchstoneProtocol
import TouchstoneStorage

/// What a device approved beyond a sign-in, carried by the tokens it leads to: the transaction hash it signed and the
/// `authorization_details` it showed (RFC 9396 §7, §9.1).
struct AuthorizationGrant: Sendable, Equatable {
    let txn: String
    let authorizationDetails: JSONValue?
}

extension AuthorizationGrant {
    /// What the phone approved for the sign-in a code was issued from; `nil` for a code without payment details.
    init?(approvedAt code: AuthorizationCodeRecord) throws {
        guard let txn = code.txn else { return nil }
        self.init(txn: txn, authorizationDetails: try code.authorizationDetails.map { try StrictJSONParser.parse($0.utf8) })
    }
}
