import Crypto
import TouchstoneProtocol

/// The transaction hash `txn` a confirmation's decision commits to (PSD2 dynamic linking).
public enum TransactionHash {
    /// base64url(SHA-256("touchstone-confirmation-v1\n" + text + "\n" + amount + "\n" + currency + "\n" + payee)):
    /// unambiguous because no field may contain a line break.
    public static func of(text: String, amount: String, currency: String, payee: String) -> String {
        let input = "touchstone-confirmation-v1\n" + text + "\n" + amount + "\n" + currency + "\n" + payee
        return Base64URL.encode(SHA256.hash(data: Array(input.utf8)))
    }
}
