/// Creation options in the WebAuthn Level 3 JSON form (§5.1.8), for `PublicKeyCredential.parseCreationOptionsFromJSON()`.
public struct PublicKeyCredentialCreationOptionsJSON: Sendable, Hashable, Codable {
    public var rp: PublicKeyCredentialRpEntity
    public var user: PublicKeyCredentialUserEntityJSON
    public var challenge: Base64URLBytes
    public var pubKeyCredParams: [PublicKeyCredentialParameters]
    /// Milliseconds.
    public var timeout: UInt32?
    public var excludeCredentials: [PublicKeyCredentialDescriptorJSON]?
    public var authenticatorSelection: AuthenticatorSelectionCriteria?
    /// `none`, `indirect`, `direct` or `enterprise`.
    public var attestation: String?

    public init(
        rp: PublicKeyCredentialRpEntity, user: PublicKeyCredentialUserEntityJSON, challenge: Base64URLBytes,
        pubKeyCredParams: [PublicKeyCredentialParameters], timeout: UInt32?,
        excludeCredentials: [PublicKeyCredentialDescriptorJSON]?, authenticatorSelection: AuthenticatorSelectionCriteria?,
        attestation: String?
    ) {
        self.rp = rp
        self.user = user
        self.challenge = challenge
        self.pubKeyCredParams = pubKeyCredParams
        self.timeout = timeout
        self.excludeCredentials = excludeCredentials
        self.authenticatorSelection = authenticatorSelection
        self.attestation = attestation
    }
}
