import Crypto
import TouchstoneCrypto
import TouchstoneProtocol

/// The token of the "Sign out of Touchstone?" form, bound to one provider session. It is made from the session's
/// secret, its cookie's value (HMAC-SHA256 of a fixed label under it), so nothing is stored, it names that session only,
/// and only the page this server shows to that browser holds it: another site can read neither the cookie nor the
/// page, so it cannot submit the form for the user.
enum LogoutConfirmation {
    private static let label = Array("touchstone logout confirmation v1".utf8)

    /// The token for the provider session whose cookie holds `sessionToken`.
    static func token(forSession sessionToken: String) -> String {
        let key = SymmetricKey(data: Array(sessionToken.utf8))
        return Base64URL.encode(Array(HMAC<SHA256>.authenticationCode(for: label, using: key)))
    }

    /// Whether `token` is the one for that session, compared in constant time.
    static func confirms(_ token: String?, session sessionToken: String) -> Bool {
        guard let token else { return false }
        return SecretDigest.constantTimeEquals(token, self.token(forSession: sessionToken))
    }
}
