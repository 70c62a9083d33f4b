import Crypto
import TouchstoneProtocol

/// The transaction hash `txn` a decision commits to (PSD2 dynamic linking): a confirmation's, or a CIBA request's.
public enum TransactionHash {
    /// base64url(SHA-256("touchstone-confirmation-v1\n" + text + "\n" + amount + "\n" + currency + "\n" + payee)):
    /// unambiguous because no field may contain a line break.
    public static func of(text: String, amount: String, currency: String, payee: String) -> String {
        let input = "touchstone-confirmation-v1\n" + text + "\n" + amount + "\n" + currency + "\n" + payee
        return Base64URL.encode(SHA256.hash(data: Array(input.utf8)))
    }

    /// base64url(SHA-256("touchstone-ciba-v1\n" + clientId + "\n" + bindingMessage + "\n" + canonical details)): a
    /// CIBA request's (or a sign-in's) `txn`, with `""` for an absent binding message or `authorization_details`.
    /// - Parameter canonicalDetails: the RFC 8785 form of `authorization_details` (``CanonicalJSON``).
    public static func ofBackchannel(clientId: String, bindingMessage: String?, canonicalDetails: [UInt8]?) -> String {
        let input =
            Array("touchstone-ciba-v1\n\(clientId)\n\(bindingMessage ?? "")\n".utf8) + (canonicalDetails ?? [])
        return Base64URL.encode(SHA256.hash(data: input))
    }
}
