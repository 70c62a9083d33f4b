import Crypto
import SwiftASN1
import X509

/// The `apple` (Apple Anonymous) attestation statement format (WebAuthn §8.8).
package enum AppleAttestation {
    /// The nonce extension, 1.2.840.113635.100.8.2.
    package static let nonceExtension: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 8, 2]

    static func verify(_ input: AttestationInput) throws(WebAuthnError) -> VerifiedAttestationStatement {
        // §8.8 step 1: attStmt is valid CBOR conforming to the syntax.
        try input.requireSyntax(.apple, required: ["x5c"])
        let certificates = try input.certificates(.apple)
        let credentialCertificate = certificates[0]
        // Steps 2–3: nonce = SHA-256(authenticatorData ‖ clientDataHash).
        let nonce = Array(SHA256.hash(data: input.signedData))
        // Step 4: the nonce equals the value of extension 1.2.840.113635.100.8.2 in credCert.
        guard let ext = credentialCertificate.extensions[oid: nonceExtension] else {
            throw WebAuthnError(.attestationInvalid, "apple: credCert lacks the nonce extension")
        }
        guard let certified = try? certifiedNonce(ext.value), certified == nonce else {
            throw WebAuthnError(.attestationInvalid, "apple: nonce does not match authenticatorData and clientDataHash")
        }
        // Step 5: the credential public key equals the subject public key of credCert.
        guard AttestationCertificates.publicKey(of: credentialCertificate, equals: input.credentialKey) else {
            throw WebAuthnError(.attestationInvalid, "apple: credCert key is not the credential public key")
        }
        // Step 6: Anonymization CA, trust path x5c.
        return VerifiedAttestationStatement(type: .anonymizationCA, trustPath: certificates)
    }

    /// The extension value: SEQUENCE { [1] EXPLICIT OCTET STRING nonce }.
    package static func certifiedNonce(_ value: ArraySlice<UInt8>) throws -> [UInt8] {
        let root = try DER.parse(value)
        return try DER.sequence(root, identifier: .sequence) { nodes in
            try DER.explicitlyTagged(&nodes, tagNumber: 1, tagClass: .contextSpecific) { node in
                Array(try ASN1OctetString(derEncoded: node).bytes)
            }
        }
    }
}
