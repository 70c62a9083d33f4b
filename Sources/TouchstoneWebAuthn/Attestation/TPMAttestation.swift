import SwiftASN1
import X509

/// The `tpm` attestation statement format (WebAuthn §8.3).
enum TPMAttestation {
    /// `tcg-kp-AIKCertificate` (2.23.133.8.3).
    static let aikCertificateUsage: ASN1ObjectIdentifier = [2, 23, 133, 8, 3]
    /// `tcg-at-tpmManufacturer`, `tcg-at-tpmModel`, `tcg-at-tpmVersion` (TPM EK profile §3.2.9).
    static let manufacturer: ASN1ObjectIdentifier = [2, 23, 133, 2, 1]
    static let model: ASN1ObjectIdentifier = [2, 23, 133, 2, 2]
    static let version: ASN1ObjectIdentifier = [2, 23, 133, 2, 3]

    static func verify(_ input: AttestationInput) throws(WebAuthnError) -> VerifiedAttestationStatement {
        func fail(_ detail: String) -> WebAuthnError { WebAuthnError(.attestationInvalid, "tpm: \(detail)") }
        // §8.3: attStmt is valid CBOR conforming to the syntax.
        try input.requireSyntax(.tpm, required: ["ver", "alg", "x5c", "sig", "certInfo", "pubArea"])
        guard input.statement[text: "ver"]?.text == "2.0" else { throw fail("ver is not \"2.0\"") }
        let algorithm = try input.algorithm(.tpm)
        let signature = try input.signature(.tpm)
        guard let certInfoBytes = input.statement[text: "certInfo"]?.bytes,
            let pubAreaBytes = input.statement[text: "pubArea"]?.bytes
        else { throw fail("certInfo and pubArea must be byte strings") }
        let publicArea: TPMPublicArea
        let certifyInfo: TPMCertifyInfo
        do {
            publicArea = try TPMPublicArea(bytes: pubAreaBytes)
            certifyInfo = try TPMCertifyInfo(bytes: certInfoBytes)
        } catch {
            throw fail("pubArea or certInfo is malformed")
        }
        // Verify that the public key in pubArea's parameters and unique fields is the credentialPublicKey.
        guard publicArea.matches(input.credentialKey) else { throw fail("pubArea key is not the credential public key") }
        // attToBeSigned = authenticatorData ‖ clientDataHash.
        let attToBeSigned = input.signedData
        // certInfo: magic is TPM_GENERATED_VALUE.
        guard certifyInfo.magic == TPMCertifyInfo.generatedValue else { throw fail("magic is not TPM_GENERATED_VALUE") }
        // certInfo: type is TPM_ST_ATTEST_CERTIFY.
        guard certifyInfo.type == TPMCertifyInfo.attestCertify else { throw fail("type is not TPM_ST_ATTEST_CERTIFY") }
        // certInfo: extraData is the hash of attToBeSigned with the hash algorithm of alg.
        guard let expectedExtraData = algorithm.digest(attToBeSigned), certifyInfo.extraData == expectedExtraData else {
            throw fail("extraData is not the hash of authenticatorData ‖ clientDataHash")
        }
        // certInfo: attested.name is a valid Name for pubArea, computed with pubArea's nameAlg.
        guard let name = publicArea.name, certifyInfo.name == name else { throw fail("attested name is not pubArea's Name") }
        // Verify that x5c is present.
        let certificates = try input.certificates(.tpm)
        let aikCertificate = certificates[0]
        // Verify that sig is a valid signature over certInfo with the aikCert key and alg.
        try AttestationCertificates.requireSignature(signature, over: certInfoBytes, by: aikCertificate, algorithm: algorithm, .tpm)
        // Verify that aikCert meets the requirements of §8.3.1.
        try requireCertificateRequirements(aikCertificate)
        // If aikCert contains id-fido-gen-ce-aaguid, verify that it matches the aaguid in authenticatorData.
        try AttestationCertificates.requireMatchingAAGUID(aikCertificate, input.credential.aaguid, .tpm)
        // AttCA, trust path x5c.
        return VerifiedAttestationStatement(type: .attestationCA, trustPath: certificates)
    }

    /// §8.3.1: version 3; empty subject; a critical Subject Alternative Name holding the TPM manufacturer, model and
    /// version (EK profile §3.2.9); Extended Key Usage with tcg-kp-AIKCertificate; Basic Constraints CA false.
    static func requireCertificateRequirements(_ certificate: Certificate) throws(WebAuthnError) {
        func fail(_ detail: String) -> WebAuthnError { WebAuthnError(.attestationInvalid, "tpm: \(detail)") }
        try AttestationCertificates.requireVersion3(certificate, .tpm)
        guard certificate.subject.isEmpty else { throw fail("AIK certificate subject is not empty") }
        guard let sanExtension = certificate.extensions[oid: .X509ExtensionID.subjectAlternativeName], sanExtension.critical,
            let names = try? SubjectAlternativeNames(sanExtension)
        else {
            throw fail("AIK certificate lacks a critical Subject Alternative Name")
        }
        var types: Set<ASN1ObjectIdentifier> = []
        for case .directoryName(let directoryName) in names {
            for rdn in directoryName {
                for attribute in rdn where String(attribute.value)?.isEmpty == false { types.insert(attribute.type) }
            }
        }
        guard types.isSuperset(of: [manufacturer, model, version]) else {
            throw fail("Subject Alternative Name lacks TPM manufacturer, model or version")
        }
        guard let usages = try? certificate.extensions.extendedKeyUsage,
            usages.contains(ExtendedKeyUsage.Usage(oid: aikCertificateUsage))
        else {
            throw fail("AIK certificate lacks the tcg-kp-AIKCertificate extended key usage")
        }
        try AttestationCertificates.requireNotCA(certificate, .tpm)
    }
}
