import Crypto
import Foundation
import TouchstoneProtocol

/// Random secrets, their SHA-256 digests at rest, and constant-time comparison.
public enum SecretDigest {
    /// `count` random bytes from the system's secure generator, base64url.
    public static func randomToken(bytes count: Int = 32) -> String {
        var generator = SystemRandomNumberGenerator()
        // Eight bytes per call to the system's generator, not one.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count + 7)
        while bytes.count < count {
            withUnsafeBytes(of: generator.next() as UInt64) { bytes.append(contentsOf: $0) }
        }
        return Base64URL.encode(bytes.prefix(count))
    }

    /// base64url(SHA-256(UTF-8 of `secret`)): how refresh tokens, API keys and poll secrets are stored.
    public static func sha256(_ secret: String) -> String {
        Base64URL.encode(SHA256.hash(data: Array(secret.utf8)))
    }

    /// Compares two strings in time that depends on their lengths only.
    public static func constantTimeEquals(_ lhs: String, _ rhs: String) -> Bool {
        let a = Array(lhs.utf8)
        let b = Array(rhs.utf8)
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices {
            difference |= a[index] ^ b[index]
        }
        return difference == 0
    }
}
