/// `residentKey` in authenticator selection (WebAuthn §5.4.6): whether a discoverable credential (a passkey) is made.
public enum ResidentKeyRequirement: String, Sendable, Hashable, Codable {
    case discouraged
    case preferred
    case required
}
