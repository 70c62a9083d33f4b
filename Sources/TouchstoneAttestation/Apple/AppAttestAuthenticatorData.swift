import TouchstoneWebAuthn

/// Reads App Attest authenticator data with the WebAuthn target's strict parser, but for one tolerance: extension
/// bytes after the credential public key while the ED flag is clear, which iOS 27 sends (the nonce covers them).
package enum AppAttestAuthenticatorData {
    /// Where the credential ID length stands: after rpIdHash (32), flags (1), counter (4) and AAGUID (16).
    private static let credentialIDLengthOffset = 53

    /// Parses `bytes`; what follows the credential public key is left out when the ED flag is clear.
    /// - Throws: ``AttestationError`` with code ``AttestationError/Code/malformedAuthenticatorData``.
    package static func parse(_ bytes: [UInt8]) throws(AttestationError) -> AuthenticatorData {
        do {
            return try AuthenticatorData(bytes: Array(bytes[..<end(ofCredentialKeyIn: bytes)]))
        } catch {
            throw AttestationError(.malformedAuthenticatorData, "\(error)")
        }
    }

    /// The offset just after the credential public key, or the end of `bytes` when there is nothing to leave out
    /// (the strict parser then says what is wrong).
    private static func end(ofCredentialKeyIn bytes: [UInt8]) -> Int {
        let lengthEnd = credentialIDLengthOffset + 2
        guard bytes.count >= lengthEnd else { return bytes.count }
        let flags = AuthenticatorFlags(rawValue: bytes[32])
        guard flags.contains(.attestedCredentialData), !flags.contains(.extensionData) else { return bytes.count }
        let credentialIDLength = Int(bytes[credentialIDLengthOffset]) << 8 | Int(bytes[credentialIDLengthOffset + 1])
        let keyStart = lengthEnd + credentialIDLength
        guard let (_, keyEnd) = try? CBORDecoder().decodePrefix(bytes, from: keyStart) else { return bytes.count }
        return keyEnd
    }
}
