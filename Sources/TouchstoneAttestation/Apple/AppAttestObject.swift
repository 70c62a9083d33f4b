import TouchstoneWebAuthn
import X509

/// An App Attest attestation object: CBOR `{fmt: "apple-appattest", attStmt: {x5c, receipt}, authData}`.
package struct AppAttestObject: Sendable {
    /// The attestation statement format identifier App Attest uses.
    static let format = "apple-appattest"

    /// The certificate chain: the credential certificate, then Apple's intermediate.
    let certificates: [Certificate]
    /// The receipt, as received.
    let receipt: [UInt8]
    /// The authenticator data, as received (what the nonce covers).
    package let authenticatorData: [UInt8]

    /// Decodes the object with the WebAuthn target's strict CBOR decoder.
    /// - Throws: ``AttestationError`` (`malformed_attestation_object`, or `malformed_certificate` for the x5c).
    package init(bytes: [UInt8]) throws(AttestationError) {
        let value: CBORValue
        do {
            value = try CBORDecoder().decode(bytes)
        } catch {
            throw AttestationError(.malformedAttestationObject, "\(error)")
        }
        guard let map = value.map, map[text: "fmt"]?.text == Self.format,
            let statement = map[text: "attStmt"]?.map,
            let authenticatorData = map[text: "authData"]?.bytes,
            let x5c = statement[text: "x5c"]?.array,
            let receipt = statement[text: "receipt"]?.bytes
        else {
            throw AttestationError(
                .malformedAttestationObject, "expected {fmt: \"\(Self.format)\", attStmt: {x5c, receipt}, authData}")
        }
        let chain = x5c.compactMap(\.bytes)
        guard chain.count == x5c.count else {
            throw AttestationError(.malformedAttestationObject, "an x5c element is not a byte string")
        }
        certificates = try CertificateChainValidator.certificates(chain)
        self.receipt = receipt
        self.authenticatorData = authenticatorData
    }
}
