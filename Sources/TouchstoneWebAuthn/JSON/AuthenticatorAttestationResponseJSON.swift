/// `response` of a registration, JSON form (WebAuthn §5.2.1).
public struct AuthenticatorAttestationResponseJSON: Sendable, Hashable, Codable {
    public var clientDataJSON: Base64URLBytes
    /// A copy of the authenticator data inside `attestationObject`; must equal it when present.
    public var authenticatorData: Base64URLBytes?
    public var transports: [String]?
    /// The credential public key as SubjectPublicKeyInfo; not used (the COSE key in `attestationObject` is).
    public var publicKey: Base64URLBytes?
    public var publicKeyAlgorithm: Int?
    public var attestationObject: Base64URLBytes

    public init(
        clientDataJSON: Base64URLBytes, authenticatorData: Base64URLBytes? = nil, transports: [String]? = nil,
        publicKey: Base64URLBytes? = nil, publicKeyAlgorithm: Int? = nil, attestationObject: Base64URLBytes
    ) {
        self.clientDataJSON = clientDataJSON
        self.authenticatorData = authenticatorData
        self.transports = transports
        self.publicKey = publicKey
        self.publicKeyAlgorithm = publicKeyAlgorithm
        self.attestationObject = attestationObject
    }
}
