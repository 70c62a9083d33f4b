import SwiftASN1
import X509

/// The `packed` attestation statement format (WebAuthn §8.2).
enum PackedAttestation {
    static func verify(_ input: AttestationInput) throws(WebAuthnError) -> VerifiedAttestationStatement {
        // §8.2 verification step 1: attStmt is valid CBOR conforming to the syntax.
        try input.requireSyntax(.packed, required: ["alg", "sig"], optional: ["x5c"])
        let algorithm = try input.algorithm(.packed)
        let signature = try input.signature(.packed)

        if input.statement[text: "x5c"] != nil {
            // §8.2 step 2: x5c present.
            let certificates = try input.certificates(.packed)
            let attestationCertificate = certificates[0]
            // Verify that sig is a valid signature over authenticatorData ‖ clientDataHash with attestnCert's key and alg.
            try AttestationCertificates.requireSignature(
                signature, over: input.signedData, by: attestationCertificate, algorithm: algorithm, .packed)
            // Verify that attestnCert meets the requirements of §8.2.1.
            try requireCertificateRequirements(attestationCertificate)
            // If attestnCert contains id-fido-gen-ce-aaguid, verify that it matches the aaguid in authenticatorData.
            try AttestationCertificates.requireMatchingAAGUID(attestationCertificate, input.credential.aaguid, .packed)
            // Basic, AttCA or uncertain, with trust path x5c.
            return VerifiedAttestationStatement(type: .basicOrAttestationCA, trustPath: certificates)
        }

        // §8.2 step 3: no x5c, self attestation.
        // Validate that alg matches the algorithm of the credentialPublicKey in authenticatorData.
        guard algorithm == input.credentialKey.algorithm else {
            throw WebAuthnError(.attestationInvalid, "packed: self attestation alg \(algorithm) is not the credential's")
        }
        // Verify that sig is a valid signature over authenticatorData ‖ clientDataHash with the credential key.
        guard input.credentialKey.isValidSignature(signature, for: input.signedData) else {
            throw WebAuthnError(.attestationInvalid, "packed: self attestation signature does not verify")
        }
        return VerifiedAttestationStatement(type: .selfAttestation, trustPath: [])
    }

    /// §8.2.1: version 3; subject C (PrintableString, ISO 3166), O, OU "Authenticator Attestation" and CN
    /// (UTF8String); Basic Constraints CA false.
    static func requireCertificateRequirements(_ certificate: Certificate) throws(WebAuthnError) {
        try AttestationCertificates.requireVersion3(certificate, .packed)
        var attributes: [ASN1ObjectIdentifier: [RelativeDistinguishedName.Attribute.Value]] = [:]
        for rdn in certificate.subject {
            for attribute in rdn { attributes[attribute.type, default: []].append(attribute.value) }
        }
        func single(_ type: ASN1ObjectIdentifier, _ name: String) throws(WebAuthnError) -> RelativeDistinguishedName.Attribute.Value {
            guard let values = attributes[type], values.count == 1, let value = values.first else {
                throw WebAuthnError(.attestationInvalid, "packed: certificate subject needs exactly one \(name)")
            }
            return value
        }
        func utf8(_ value: RelativeDistinguishedName.Attribute.Value) -> String? {
            guard let text = String(value), value == RelativeDistinguishedName.Attribute.Value(utf8String: text) else { return nil }
            return text
        }
        let country = try single(.RDNAttributeType.countryName, "C")
        guard let countryCode = String(country), countryCode.count == 2,
            countryCode.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) }),
            (try? RelativeDistinguishedName.Attribute.Value(printableString: countryCode)) == country
        else {
            throw WebAuthnError(.attestationInvalid, "packed: subject C must be a two-letter ISO 3166 PrintableString")
        }
        guard let organization = utf8(try single(.RDNAttributeType.organizationName, "O")), !organization.isEmpty else {
            throw WebAuthnError(.attestationInvalid, "packed: subject O must be a UTF8String")
        }
        guard utf8(try single(.RDNAttributeType.organizationalUnitName, "OU")) == "Authenticator Attestation" else {
            throw WebAuthnError(.attestationInvalid, "packed: subject OU must be the UTF8String \"Authenticator Attestation\"")
        }
        guard let commonName = utf8(try single(.RDNAttributeType.commonName, "CN")), !commonName.isEmpty else {
            throw WebAuthnError(.attestationInvalid, "packed: subject CN must be a UTF8String")
        }
        try AttestationCertificates.requireNotCA(certificate, .packed)
    }
}
