import Crypto
import TouchstoneCrypto
import TouchstoneProtocol

/// Proof Key for Code Exchange (RFC 7636) with `S256`, the only method the provider takes.
enum PKCE {
    /// Whether `value` is 43 to 128 characters of `[A-Za-z0-9-._~]`, as verifiers and S256 challenges are (§4.1).
    static func isWellFormed(_ value: String) -> Bool {
        (43...128).contains(value.utf8.count) && value.utf8.allSatisfy(PercentEncoding.isUnreserved)
    }

    /// Whether `verifier` is the one whose S256 transform is `challenge` (§4.6).
    static func verifier(_ verifier: String, matches challenge: String) -> Bool {
        isWellFormed(verifier)
            && SecretDigest.constantTimeEquals(Base64URL.encode(SHA256.hash(data: Array(verifier.utf8))), challenge)
    }
}
