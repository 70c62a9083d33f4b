import TouchstoneProtocol

/// What a device approved beyond a sign-in, carried by the tokens it leads to: the transaction hash it signed and the
/// `authorization_details` it showed (RFC 9396 §7, §9.1).
struct AuthorizationGrant: Sendable, Equatable {
    let txn: String
    let authorizationDetails: JSONValue?
}
