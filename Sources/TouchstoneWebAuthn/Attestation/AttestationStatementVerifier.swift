/// Runs the verification procedure of an attestation statement format (WebAuthn §8).
package enum AttestationStatementVerifier {
    package static func verify(_ format: AttestationFormat, _ input: AttestationInput) throws(WebAuthnError) -> VerifiedAttestationStatement {
        switch format {
        case .none:
            // §8.7: the statement is the empty map; attestation type None, empty trust path.
            guard input.statement.count == 0 else {
                throw WebAuthnError(.attestationInvalid, "none: attStmt must be empty")
            }
            return VerifiedAttestationStatement(type: .none, trustPath: [])
        case .packed: return try PackedAttestation.verify(input)
        case .tpm: return try TPMAttestation.verify(input)
        case .androidKey: return try AndroidKeyAttestation.verify(input)
        case .fidoU2F: return try FIDOU2FAttestation.verify(input)
        case .apple: return try AppleAttestation.verify(input)
        }
    }
}
