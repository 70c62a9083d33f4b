/// Authenticator data (WebAuthn §6.1), parsed strictly: the flags must agree with what follows the sign counter,
/// and nothing may trail the last structure.
public struct AuthenticatorData: Sendable {
    /// The bytes as received (what signatures cover).
    public let bytes: [UInt8]
    /// SHA-256 of the RP ID the authenticator scoped the credential to.
    public let rpIdHash: [UInt8]
    /// The flags.
    public let flags: AuthenticatorFlags
    /// The signature counter (0 when the authenticator keeps none).
    public let signCount: UInt32
    /// Present exactly when the AT flag is set.
    public let attestedCredentialData: AttestedCredentialData?
    /// The authenticator extension outputs, keyed by extension identifier; present exactly when the ED flag is set.
    public let extensions: CBORMap?

    /// Parses authenticator data.
    /// - Throws: ``WebAuthnError`` with code `malformed_authenticator_data`, or the COSE key's code when the
    ///   credential public key is not even well-formed CBOR.
    public init(bytes: [UInt8]) throws(WebAuthnError) {
        func fail(_ detail: String) -> WebAuthnError { WebAuthnError(.malformedAuthenticatorData, detail) }
        guard bytes.count >= 37 else { throw fail("shorter than 37 bytes") }
        self.bytes = bytes
        rpIdHash = Array(bytes[0..<32])
        flags = AuthenticatorFlags(rawValue: bytes[32])
        signCount = bytes[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
        var position = 37
        let decoder = CBORDecoder()

        if flags.contains(.attestedCredentialData) {
            guard bytes.count >= position + 18 else { throw fail("attested credential data truncated") }
            let aaguid = Array(bytes[position..<(position + 16)])
            let length = Int(bytes[position + 16]) << 8 | Int(bytes[position + 17])
            position += 18
            guard bytes.count - position >= length else { throw fail("credential ID truncated") }
            let credentialID = Array(bytes[position..<(position + length)])
            position += length
            let key: CBORValue
            let end: Int
            do {
                (key, end) = try decoder.decodePrefix(bytes, from: position)
            } catch {
                throw WebAuthnError(.malformedCredentialPublicKey, "credential public key: \(error)")
            }
            guard let map = key.map else { throw WebAuthnError(.malformedCredentialPublicKey, "COSE key is not a map") }
            attestedCredentialData = AttestedCredentialData(
                aaguid: aaguid, credentialID: credentialID,
                credentialPublicKeyBytes: Array(bytes[position..<end]), credentialPublicKeyMap: map)
            position = end
        } else {
            attestedCredentialData = nil
        }

        if flags.contains(.extensionData) {
            let value: CBORValue
            do {
                value = try decoder.decode(Array(bytes[position...]))
            } catch {
                throw fail("extensions: \(error)")
            }
            guard let map = value.map, map.entries.allSatisfy({ $0.key.text != nil }) else {
                throw fail("extensions must be a map keyed by extension identifiers")
            }
            extensions = map
        } else {
            guard position == bytes.count else { throw fail("\(bytes.count - position) bytes after the last structure") }
            extensions = nil
        }
    }
}
