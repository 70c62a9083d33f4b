/// A registration result as `PublicKeyCredential.toJSON()` serializes it (WebAuthn §5.1, `RegistrationResponseJSON`).
public struct RegistrationResponseJSON: Sendable, Hashable, Codable {
    /// The credential ID, base64url; must be `rawId`'s encoding.
    public var id: String
    public var rawId: Base64URLBytes
    public var response: AuthenticatorAttestationResponseJSON
    public var authenticatorAttachment: String?
    public var clientExtensionResults: AuthenticationExtensionsClientOutputsJSON
    /// Always `public-key`.
    public var type: String

    public init(
        id: String, rawId: Base64URLBytes, response: AuthenticatorAttestationResponseJSON,
        authenticatorAttachment: String? = nil,
        clientExtensionResults: AuthenticationExtensionsClientOutputsJSON = .init(), type: String = "public-key"
    ) {
        self.id = id
        self.rawId = rawId
        self.response = response
        self.authenticatorAttachment = authenticatorAttachment
        self.clientExtensionResults = clientExtensionResults
        self.type = type
    }
}
