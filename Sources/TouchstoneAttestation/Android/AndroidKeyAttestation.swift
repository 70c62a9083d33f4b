/// What a verified Android key attestation chain says: the key, and the leaf's `KeyDescription`.
///
/// The chain behind it is trusted; whether its properties are acceptable is for ``AndroidKeyAttestationPolicy``.
public struct AndroidKeyAttestation: Sendable, Hashable {
    /// The attested key: the leaf certificate's public key.
    public let publicKey: AttestationPublicKey
    /// The leaf's key attestation extension.
    public let keyDescription: KeyDescription
}
