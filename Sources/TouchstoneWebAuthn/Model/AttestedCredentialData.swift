/// The attested credential data inside authenticator data (WebAuthn §6.5.1).
public struct AttestedCredentialData: Sendable {
    /// The authenticator's AAGUID (16 bytes; all zero when the authenticator does not say).
    public let aaguid: [UInt8]
    /// The credential ID. Its length is not limited here; registration refuses more than 1023 bytes.
    public let credentialID: [UInt8]
    /// The credential public key's CTAP2 canonical CBOR encoding, as received.
    public let credentialPublicKeyBytes: [UInt8]
    /// The decoded credential public key map, not yet validated as a ``COSEKey``.
    let credentialPublicKeyMap: CBORMap

    /// The credential public key, validated.
    /// - Throws: ``WebAuthnError`` (`unsupported_algorithm` or `malformed_credential_public_key`).
    public func credentialPublicKey() throws(WebAuthnError) -> COSEKey {
        try COSEKey(map: credentialPublicKeyMap, bytes: credentialPublicKeyBytes)
    }
}
