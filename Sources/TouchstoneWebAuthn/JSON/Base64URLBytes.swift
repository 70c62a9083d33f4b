/// Bytes that travel in JSON as an unpadded base64url string (WebAuthn L3 JSON serialization).
public struct Base64URLBytes: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The bytes.
    public var bytes: [UInt8]

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Decodes canonical unpadded base64url text, or returns nil.
    public init?(base64URL text: String) {
        guard let bytes = Base64URL.decode(text) else { return nil }
        self.bytes = bytes
    }

    /// The unpadded base64url text.
    public var base64URL: String { Base64URL.encode(bytes) }

    public var description: String { base64URL }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let bytes = Base64URL.decode(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not unpadded base64url")
        }
        self.bytes = bytes
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(base64URL)
    }
}
