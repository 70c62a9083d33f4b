import Crypto

/// A verified App Attest attestation: the key to store with the device, and what vouches for it.
public struct AppAttestation: Sendable {
    /// The attested key: the App Attest key, which signs the app's later assertions.
    public let publicKey: P256.Signing.PublicKey
    /// The key identifier: SHA-256 of the key's uncompressed point.
    public let keyID: [UInt8]
    /// The allowed App ID the key is scoped to.
    public let appID: String
    /// Production or development.
    public let environment: AppAttestEnvironment
    /// Apple's fraud-assessment receipt, as received; not validated here.
    public let receipt: [UInt8]
}
