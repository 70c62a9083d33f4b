/// A verified App Attest attestation: the key to store with the device, and what vouches for it.
public struct AppAttestation: Sendable, Hashable {
    /// The attested P-256 key (the App Attest key, which signs later assertions).
    public let publicKey: AttestationPublicKey
    /// The key identifier: SHA-256 of the key's uncompressed point.
    public let keyID: [UInt8]
    /// The allowed App ID the key is scoped to.
    public let appID: String
    /// Production or development.
    public let environment: AppAttestEnvironment
    /// Apple's fraud-assessment receipt, as received; not validated here.
    public let receipt: [UInt8]
}
