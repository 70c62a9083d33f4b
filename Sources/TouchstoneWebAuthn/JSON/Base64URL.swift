import TouchstoneProtocol

/// Unpadded base64url (RFC 4648 §5), as the WebAuthn L3 JSON serialization uses it: TouchstoneProtocol's encoding,
/// read strictly (no padding, no whitespace, no `+` or `/`, spare bits zero).
enum Base64URL {
    static func encode(_ bytes: some Collection<UInt8>) -> String {
        TouchstoneProtocol.Base64URL.encode(bytes)
    }

    /// - Returns: nil for anything but canonical unpadded base64url.
    static func decode(_ text: String) -> [UInt8]? {
        TouchstoneProtocol.Base64URL.canonicalBytes(text)
    }
}
