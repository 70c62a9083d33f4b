/// A credential named in `excludeCredentials` or `allowCredentials` (WebAuthn §5.8.3), JSON form.
public struct PublicKeyCredentialDescriptorJSON: Sendable, Hashable, Codable {
    /// The credential ID, base64url.
    public var id: Base64URLBytes
    /// Always `public-key`.
    public var type: String
    /// Transport hints, omitted when empty.
    public var transports: [String]?

    public init(id: Base64URLBytes, type: String = "public-key", transports: [String]? = nil) {
        self.id = id
        self.type = type
        self.transports = transports
    }
}
