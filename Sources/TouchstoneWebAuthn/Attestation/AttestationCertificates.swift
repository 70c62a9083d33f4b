import SwiftASN1
import X509

/// Parsing of x5c arrays and the certificate checks several formats share.
enum AttestationCertificates {
    /// `id-fido-gen-ce-aaguid` (1.3.6.1.4.1.45724.1.1.4).
    static let aaguidExtension: ASN1ObjectIdentifier = [1, 3, 6, 1, 4, 1, 45724, 1, 1, 4]
    /// The most certificates accepted in one x5c.
    static let maximumChainLength = 8

    /// Parses a non-empty CBOR array of DER certificates.
    static func parse(_ value: CBORValue?, format: AttestationFormat) throws(WebAuthnError) -> [Certificate] {
        guard let elements = value?.array, !elements.isEmpty, elements.count <= maximumChainLength else {
            throw WebAuthnError(.attestationInvalid, "\(format.rawValue): x5c must hold 1–\(maximumChainLength) certificates")
        }
        var certificates: [Certificate] = []
        for element in elements {
            guard let der = element.bytes else {
                throw WebAuthnError(.attestationInvalid, "\(format.rawValue): x5c element is not a byte string")
            }
            do {
                certificates.append(try Certificate(derEncoded: der))
            } catch {
                throw WebAuthnError(.attestationInvalid, "\(format.rawValue): x5c certificate does not parse: \(error)")
            }
        }
        return certificates
    }

    /// Version 3 (WebAuthn §8.2.1, §8.3.1).
    static func requireVersion3(_ certificate: Certificate, _ format: AttestationFormat) throws(WebAuthnError) {
        guard certificate.version == .v3 else {
            throw WebAuthnError(.attestationInvalid, "\(format.rawValue): attestation certificate is not version 3")
        }
    }

    /// Basic Constraints present with CA false (WebAuthn §8.2.1, §8.3.1).
    static func requireNotCA(_ certificate: Certificate, _ format: AttestationFormat) throws(WebAuthnError) {
        let constraints: BasicConstraints?
        do {
            constraints = try certificate.extensions.basicConstraints
        } catch {
            throw WebAuthnError(.attestationInvalid, "\(format.rawValue): Basic Constraints do not parse")
        }
        guard case .notCertificateAuthority = constraints else {
            throw WebAuthnError(.attestationInvalid, "\(format.rawValue): attestation certificate lacks Basic Constraints CA=false")
        }
    }

    /// When the certificate carries `id-fido-gen-ce-aaguid`, it must be non-critical and hold the authenticator
    /// data's AAGUID as an OCTET STRING (WebAuthn §8.2 and §8.3 verification procedures).
    static func requireMatchingAAGUID(_ certificate: Certificate, _ aaguid: [UInt8], _ format: AttestationFormat) throws(WebAuthnError) {
        guard let ext = certificate.extensions[oid: aaguidExtension] else { return }
        guard !ext.critical else {
            throw WebAuthnError(.attestationInvalid, "\(format.rawValue): id-fido-gen-ce-aaguid must not be critical")
        }
        let value: ASN1OctetString
        do {
            value = try ASN1OctetString(derEncoded: ext.value)
        } catch {
            throw WebAuthnError(.attestationInvalid, "\(format.rawValue): id-fido-gen-ce-aaguid is not an OCTET STRING")
        }
        guard value.bytes.elementsEqual(aaguid) else {
            throw WebAuthnError(.attestationInvalid, "\(format.rawValue): certificate AAGUID differs from authenticator data")
        }
    }

    /// Whether the certificate's public key is the credential public key.
    static func publicKey(of certificate: Certificate, equals key: COSEKey) -> Bool {
        guard let certificateKey = VerificationKey(certificateKey: certificate.publicKey, for: key.algorithm) else {
            return false
        }
        return certificateKey.canonicalBytes == key.key.canonicalBytes
    }

    /// Verifies an attestation signature with the certificate's key and the attStmt algorithm.
    static func requireSignature(
        _ signature: [UInt8], over data: [UInt8], by certificate: Certificate, algorithm: COSEAlgorithm,
        _ format: AttestationFormat
    ) throws(WebAuthnError) {
        guard let key = VerificationKey(certificateKey: certificate.publicKey, for: algorithm) else {
            throw WebAuthnError(.attestationInvalid, "\(format.rawValue): certificate key does not fit \(algorithm)")
        }
        guard key.isValidSignature(signature, for: data, algorithm: algorithm) else {
            throw WebAuthnError(.attestationInvalid, "\(format.rawValue): attestation signature does not verify")
        }
    }
}
