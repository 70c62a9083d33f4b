/// What the relying party asked for when it started an authentication ceremony (its `PublicKeyCredentialRequestOptions`).
public struct AuthenticationExpectations: Sendable, Hashable {
    /// The challenge sent in the options.
    public var challenge: [UInt8]
    /// Whether the UV flag must be set (§7.2 step 17).
    public var requiresUserVerification: Bool
    /// `allowCredentials`; empty for discoverable credentials (§7.2 step 5).
    public var allowedCredentialIDs: [[UInt8]]
    /// The user handle of the account identified before the ceremony (by username, say), or nil when the user is
    /// identified by the credential (§7.2 step 6).
    public var identifiedUser: [UInt8]?

    /// - ⚠️ `challenge` is the one sent in this ceremony's options, used once; pass `identifiedUser` whenever the
    ///   account was chosen before the ceremony, so that a credential of another account is refused.
    public init(
        challenge: [UInt8], requiresUserVerification: Bool = true, allowedCredentialIDs: [[UInt8]] = [],
        identifiedUser: [UInt8]? = nil
    ) {
        self.challenge = challenge
        self.requiresUserVerification = requiresUserVerification
        self.allowedCredentialIDs = allowedCredentialIDs
        self.identifiedUser = identifiedUser
    }
}
