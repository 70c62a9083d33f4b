/// `authenticatorSelection` in creation options (WebAuthn §5.4.4).
public struct AuthenticatorSelectionCriteria: Sendable, Hashable, Codable {
    /// `platform` or `cross-platform`, or nil for either.
    public var authenticatorAttachment: String?
    public var residentKey: ResidentKeyRequirement?
    /// Level 1 compatibility: true exactly when `residentKey` is `required`.
    public var requireResidentKey: Bool?
    public var userVerification: UserVerificationRequirement?

    public init(
        authenticatorAttachment: String? = nil, residentKey: ResidentKeyRequirement?, requireResidentKey: Bool?,
        userVerification: UserVerificationRequirement?
    ) {
        self.authenticatorAttachment = authenticatorAttachment
        self.residentKey = residentKey
        self.requireResidentKey = requireResidentKey
        self.userVerification = userVerification
    }
}
