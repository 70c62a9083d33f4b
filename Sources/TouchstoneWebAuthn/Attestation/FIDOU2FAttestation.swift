/// The `fido-u2f` attestation statement format (WebAuthn §8.6).
enum FIDOU2FAttestation {
    static func verify(_ input: AttestationInput) throws(WebAuthnError) -> VerifiedAttestationStatement {
        // §8.6 step 1: attStmt is valid CBOR conforming to the syntax.
        try input.requireSyntax(.fidoU2F, required: ["x5c", "sig"])
        let signature = try input.signature(.fidoU2F)
        // Step 2: x5c has exactly one element, attCert, whose key is an EC key on P-256.
        let certificates = try input.certificates(.fidoU2F)
        guard certificates.count == 1 else {
            throw WebAuthnError(.attestationInvalid, "fido-u2f: x5c must hold exactly one certificate")
        }
        let attestationCertificate = certificates[0]
        guard VerificationKey(certificateKey: attestationCertificate.publicKey, for: .es256) != nil else {
            throw WebAuthnError(.attestationInvalid, "fido-u2f: attestation key is not P-256")
        }
        // Step 3: rpIdHash from authenticatorData; credentialId and credentialPublicKey from attestedCredentialData.
        // Step 4: convert the COSE key to raw ANSI X9.62: x and y must be 32 bytes each.
        guard case .ec2(curve: 1, let x, let y) = input.credentialKey.parameters, x.count == 32, y.count == 32 else {
            throw WebAuthnError(.attestationInvalid, "fido-u2f: credential key is not an ES256 P-256 key")
        }
        let publicKeyU2F = [0x04] + x + y
        // Step 5: verificationData = 0x00 ‖ rpIdHash ‖ clientDataHash ‖ credentialId ‖ publicKeyU2F.
        let verificationData: [UInt8] = [0x00] + input.authenticatorData.rpIdHash + input.clientDataHash
            + input.credential.credentialID + publicKeyU2F
        // Step 6: verify sig with the certificate key (ECDSA P-256, SHA-256).
        try AttestationCertificates.requireSignature(
            signature, over: verificationData, by: attestationCertificate, algorithm: .es256, .fidoU2F)
        // Step 8: Basic, AttCA or uncertain, with trust path x5c.
        return VerifiedAttestationStatement(type: .basicOrAttestationCA, trustPath: certificates)
    }
}
