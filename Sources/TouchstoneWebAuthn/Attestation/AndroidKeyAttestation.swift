/// The `android-key` attestation statement format (WebAuthn §8.4).
enum AndroidKeyAttestation {
    static func verify(_ input: AttestationInput) throws(WebAuthnError) -> VerifiedAttestationStatement {
        func fail(_ detail: String) -> WebAuthnError { WebAuthnError(.attestationInvalid, "android-key: \(detail)") }
        // §8.4: attStmt is valid CBOR conforming to the syntax.
        try input.requireSyntax(.androidKey, required: ["alg", "sig", "x5c"])
        let algorithm = try input.algorithm(.androidKey)
        let signature = try input.signature(.androidKey)
        let certificates = try input.certificates(.androidKey)
        let credentialCertificate = certificates[0]
        // Verify that sig is a valid signature over authenticatorData ‖ clientDataHash using the public key in the
        // first certificate in x5c with alg.
        try AttestationCertificates.requireSignature(
            signature, over: input.signedData, by: credentialCertificate, algorithm: algorithm, .androidKey)
        // Verify that the public key in the first certificate matches the credentialPublicKey.
        guard AttestationCertificates.publicKey(of: credentialCertificate, equals: input.credentialKey) else {
            throw fail("certificate key is not the credential public key")
        }
        guard let ext = credentialCertificate.extensions[oid: AndroidKeyDescription.extensionOID] else {
            throw fail("certificate lacks the key attestation extension")
        }
        let description: AndroidKeyDescription
        do {
            description = try AndroidKeyDescription(derEncoded: ext.value)
        } catch {
            throw fail("key attestation extension does not parse: \(error)")
        }
        // Verify that attestationChallenge is identical to clientDataHash.
        guard description.attestationChallenge == input.clientDataHash else {
            throw fail("attestationChallenge is not clientDataHash")
        }
        // allApplications is present in neither authorization list: the key must be scoped to the RP ID.
        guard !description.softwareEnforced.allApplications, !description.teeEnforced.allApplications else {
            throw fail("key is usable by all applications")
        }
        // origin and purpose: teeEnforced only, or the union with softwareEnforced if the RP accepts software keys.
        var lists = [description.teeEnforced]
        if input.policy.insecureAcceptsSoftwareEnforcedAndroidKeys { lists.append(description.softwareEnforced) }
        let origins = lists.compactMap(\.origin)
        guard !origins.isEmpty, origins.allSatisfy({ $0 == AndroidKeyDescription.originGenerated }) else {
            throw fail("origin is not KM_ORIGIN_GENERATED")
        }
        let purposes = Set(lists.compactMap(\.purposes).joined())
        guard purposes == [AndroidKeyDescription.purposeSign] else {
            throw fail("purpose is not KM_PURPOSE_SIGN")
        }
        // Basic attestation, trust path x5c.
        return VerifiedAttestationStatement(type: .basic, trustPath: certificates)
    }
}
