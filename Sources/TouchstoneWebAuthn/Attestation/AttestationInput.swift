import X509

/// The verification procedure inputs of WebAuthn §8 (attStmt, authenticatorData, clientDataHash), with the
/// credential public key already validated and the attestation policy.
package struct AttestationInput: Sendable {
    let statement: CBORMap
    let authenticatorData: AuthenticatorData
    let credential: AttestedCredentialData
    let credentialKey: COSEKey
    let clientDataHash: [UInt8]
    let policy: AttestationPolicy

    package init(
        statement: CBORMap, authenticatorData: AuthenticatorData, credential: AttestedCredentialData,
        credentialKey: COSEKey, clientDataHash: [UInt8], policy: AttestationPolicy
    ) {
        self.statement = statement
        self.authenticatorData = authenticatorData
        self.credential = credential
        self.credentialKey = credentialKey
        self.clientDataHash = clientDataHash
        self.policy = policy
    }

    /// authenticatorData ‖ clientDataHash, what most formats sign.
    var signedData: [UInt8] { authenticatorData.bytes + clientDataHash }

    /// Fails unless the statement's keys are exactly `required` plus any of `optional` (the format's CDDL syntax).
    func requireSyntax(_ format: AttestationFormat, required: Set<String>, optional: Set<String> = []) throws(WebAuthnError) {
        var present: Set<String> = []
        for entry in statement.entries {
            guard let key = entry.key.text, required.contains(key) || optional.contains(key) else {
                throw WebAuthnError(.attestationInvalid, "\(format.rawValue): unexpected attStmt member \(entry.key)")
            }
            present.insert(key)
        }
        guard required.isSubset(of: present) else {
            throw WebAuthnError(.attestationInvalid, "\(format.rawValue): attStmt lacks \(required.subtracting(present).sorted())")
        }
    }

    /// The attStmt `alg`, which must be an algorithm this package verifies.
    func algorithm(_ format: AttestationFormat) throws(WebAuthnError) -> COSEAlgorithm {
        guard let raw = statement[text: "alg"]?.int else {
            throw WebAuthnError(.attestationInvalid, "\(format.rawValue): alg is not an integer")
        }
        let algorithm = COSEAlgorithm(rawValue: raw)
        guard algorithm.isSupported else {
            throw WebAuthnError(.attestationInvalid, "\(format.rawValue): unsupported attestation algorithm \(algorithm)")
        }
        return algorithm
    }

    /// The attStmt `sig` bytes.
    func signature(_ format: AttestationFormat) throws(WebAuthnError) -> [UInt8] {
        guard let sig = statement[text: "sig"]?.bytes else {
            throw WebAuthnError(.attestationInvalid, "\(format.rawValue): sig is not a byte string")
        }
        return sig
    }

    /// The attStmt `x5c` certificates, parsed; at least one.
    func certificates(_ format: AttestationFormat) throws(WebAuthnError) -> [Certificate] {
        try AttestationCertificates.parse(statement[text: "x5c"], format: format)
    }
}
