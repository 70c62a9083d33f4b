/// The account a passkey is registered to, as the authenticator will show and store it.
public struct PasskeyUser: Sendable, Hashable {
    /// The user handle: 1–64 bytes, opaque, and the same for every credential of the account.
    /// - ⚠️ Never put personal data (username, e-mail) in it: authenticators store it and return it unencrypted.
    public var id: [UInt8]
    /// The account name the user recognizes (e.g. a username or e-mail).
    public var name: String
    /// The name shown to the user.
    public var displayName: String

    public init(id: [UInt8], name: String, displayName: String) {
        self.id = id
        self.name = name
        self.displayName = displayName
    }
}
