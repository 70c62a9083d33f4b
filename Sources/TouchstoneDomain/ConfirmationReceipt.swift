import TouchstoneProtocol
import TouchstoneStorage

/// The claims of a `touchstone-confirmation+jwt`: the server's statement of how a confirmation was decided, signed with
/// its access-token key.
struct ConfirmationReceipt: Encodable, Sendable {
    package static let type = "touchstone-confirmation+jwt"

    package let iss: String
    /// The asking app's client id.
    package let aud: String
    package let sub: String
    /// The confirmation's id.
    let cid: String
    package let txn: String
    /// `approve` or `deny`: the device's word.
    package let decision: String
    package let amr: [AuthenticationMethod]
    package let did: String?
    package let iat: Int64
}
