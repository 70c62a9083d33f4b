/// Request options in the WebAuthn Level 3 JSON form (§5.1.9), for `PublicKeyCredential.parseRequestOptionsFromJSON()`.
public struct PublicKeyCredentialRequestOptionsJSON: Sendable, Hashable, Codable {
    public var challenge: Base64URLBytes
    /// Milliseconds.
    public var timeout: UInt32?
    public var rpId: String?
    /// Empty for discoverable credentials (passkeys chosen by the user).
    public var allowCredentials: [PublicKeyCredentialDescriptorJSON]?
    public var userVerification: UserVerificationRequirement?

    public init(
        challenge: Base64URLBytes, timeout: UInt32?, rpId: String?,
        allowCredentials: [PublicKeyCredentialDescriptorJSON]?, userVerification: UserVerificationRequirement?
    ) {
        self.challenge = challenge
        self.timeout = timeout
        self.rpId = rpId
        self.allowCredentials = allowCredentials
        self.userVerification = userVerification
    }
}
