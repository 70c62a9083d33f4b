/// `rp` in creation options (WebAuthn §5.4.2).
public struct PublicKeyCredentialRpEntity: Sendable, Hashable, Codable {
    public var id: String?
    public var name: String

    public init(id: String?, name: String) {
        self.id = id
        self.name = name
    }
}
