/// `response` of an authentication, JSON form (WebAuthn §5.2.2).
public struct AuthenticatorAssertionResponseJSON: Sendable, Hashable, Codable {
    public var clientDataJSON: Base64URLBytes
    public var authenticatorData: Base64URLBytes
    public var signature: Base64URLBytes
    /// The user handle, for discoverable credentials. An empty value is treated as absent.
    public var userHandle: Base64URLBytes?
    /// Not requested and not verified.
    public var attestationObject: Base64URLBytes?

    public init(
        clientDataJSON: Base64URLBytes, authenticatorData: Base64URLBytes, signature: Base64URLBytes,
        userHandle: Base64URLBytes? = nil, attestationObject: Base64URLBytes? = nil
    ) {
        self.clientDataJSON = clientDataJSON
        self.authenticatorData = authenticatorData
        self.signature = signature
        self.userHandle = userHandle
        self.attestationObject = attestationObject
    }
}
