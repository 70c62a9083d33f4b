import Foundation
import _CryptoExtras

/// A TouchIDAuth key as `POST /pubkey` sends it: base64 of a PKCS#1 `RSA PUBLIC KEY` PEM, with LF, CRLF or CR line
/// endings. Parsing says nothing about the key's size being acceptable: the caller decides that from ``bits``.
public struct LegacyRSAPublicKey: Sendable {
    /// The key's PKCS#1 DER.
    public let der: Data
    /// The modulus size in bits.
    public let bits: Int

    /// - Throws: ``KeyError`` saying what the text is not.
    public init(base64PEM key: String) throws {
        guard let pemData = Data(base64Encoded: key), let pem = String(data: pemData, encoding: .utf8) else {
            throw KeyError("key must be base64 of a PEM RSA PUBLIC KEY")
        }
        let lines = pem.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard lines.first == "-----BEGIN RSA PUBLIC KEY-----", lines.last == "-----END RSA PUBLIC KEY-----",
            let der = Data(base64Encoded: lines.dropFirst().dropLast().joined()),
            let parsed = try? _RSA.Signing.PublicKey(unsafeDERRepresentation: der)
        else { throw KeyError("key must be a PKCS#1 RSA PUBLIC KEY") }
        self.der = der
        self.bits = parsed.keySizeInBits
    }
}
