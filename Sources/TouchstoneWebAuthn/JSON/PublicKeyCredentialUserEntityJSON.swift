/// `user` in creation options (WebAuthn §5.4.3), JSON form.
public struct PublicKeyCredentialUserEntityJSON: Sendable, Hashable, Codable {
    /// The user handle, base64url.
    public var id: Base64URLBytes
    public var name: String
    public var displayName: String

    public init(id: Base64URLBytes, name: String, displayName: String) {
        self.id = id
        self.name = name
        self.displayName = displayName
    }
}
