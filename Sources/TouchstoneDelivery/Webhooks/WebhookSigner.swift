import Crypto
import Foundation

/// Signs webhook deliveries as the Standard Webhooks specification does: `webhook-signature: v1,<base64>`, an
/// HMAC-SHA256 over `{webhook-id}.{webhook-timestamp}.{body}` keyed with the secret's decoded bytes.
///
/// ⚠️ The key signs every delivery of its webhook: never log it, nor put it in a reason.
package struct WebhookSigner: Sendable {
    private let key: SymmetricKey

    /// - Parameter key: the secret's bytes: what follows `whsec_`, base64-decoded.
    package init(key: [UInt8]) {
        self.key = SymmetricKey(data: key)
    }

    /// The `webhook-signature` header of one try: `v1,` + the standard base64 (with padding) of the HMAC.
    /// - Parameters:
    ///   - id: the `webhook-id` (the event's id).
    ///   - timestamp: the `webhook-timestamp`, Unix seconds of this try.
    ///   - body: the exact bytes sent.
    package func signature(id: String, timestamp: Int, body: [UInt8]) -> String {
        var signed = Array("\(id).\(timestamp).".utf8)
        signed += body
        let mac = HMAC<SHA256>.authenticationCode(for: signed, using: key)
        return "v1," + Data(mac).base64EncodedString()
    }
}
