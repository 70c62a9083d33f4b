import Foundation
import TouchstoneProtocol

/// A compact JWS of JSON header and claims, signed by the caller's key (the key decides the algorithm).
enum CompactJWT {
    /// `base64url(header).base64url(claims).base64url(sign(signing input))`.
    static func make(
        header: some Encodable, claims: some Encodable, sign: (Data) throws -> Data
    ) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let signingInput =
            Base64URL.encode(try encoder.encode(header)) + "." + Base64URL.encode(try encoder.encode(claims))
        return signingInput + "." + Base64URL.encode(try sign(Data(signingInput.utf8)))
    }
}
