import X509

/// A verified registration (WebAuthn §7.1): the credential record to store and what the ceremony established.
public struct VerifiedRegistration: Sendable {
    /// The new credential record.
    public let credential: Credential
    /// The validated credential public key.
    public let credentialPublicKey: COSEKey
    /// The attestation type, as accepted by the policy (a verified but untrusted attestation accepted under
    /// ``AttestationPolicy/acceptsUntrustedAttestation`` is reported as self attestation).
    public let attestationType: AttestationType
    /// The attestation trust path, leaf first, when it chained to a trust anchor; empty otherwise.
    public let trustPath: [Certificate]
    /// Whether the user was verified.
    public let userVerified: Bool
    /// The parsed client data.
    public let clientData: CollectedClientData
    /// The authenticator data from the attestation object.
    public let authenticatorData: AuthenticatorData
}
