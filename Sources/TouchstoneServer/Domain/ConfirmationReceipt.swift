/// The claims of a `touchstone-confirmation+jwt`: the server's statement of how a confirmation was decided, signed with
/// its access-token key.
struct ConfirmationReceipt: Encodable, Sendable {
    static let type = "touchstone-confirmation+jwt"

    let iss: String
    /// The asking app's client id.
    let aud: String
    let sub: String
    /// The confirmation's id.
    let cid: String
    let txn: String
    /// `approve` or `deny`: the device's word.
    let decision: String
    let amr: [String]
    let did: String?
    let iat: Int64
}
