import Foundation
import X509

/// Validates an attestation certificate chain (leaf first) up to trust anchors, at a given time.
///
/// Each certificate must be signed by the next one and, but for the leaf, be a CA allowed to sign certificates; the
/// last one must be signed by an anchor with its issuer's name. When the chain ends in a self-signed certificate with
/// the subject and public key of an anchor, that copy stands for the anchor: it is left out of the path, so its own
/// validity period does not count (Google's 2016 copy of its RSA root expired in 2026 while devices still send it).
/// Every certificate of the path must be valid at the given time, and no certificate of the chain may be listed in the
/// status list.
struct CertificateChainValidator: Sendable {
    /// The most certificates accepted in one chain.
    static let maximumLength = 10

    /// The roots the chain may end at.
    let anchors: [Certificate]
    /// The certificates revoked or suspended.
    let statusList: AttestationStatusList

    /// Parses DER certificates, leaf first.
    /// - Throws: ``AttestationError`` (`chain_invalid` for an empty or over-long chain, `malformed_certificate`).
    static func certificates(_ chain: [[UInt8]]) throws(AttestationError) -> [Certificate] {
        guard !chain.isEmpty, chain.count <= maximumLength else {
            throw AttestationError(.chainInvalid, "a chain holds 1 to \(maximumLength) certificates: \(chain.count)")
        }
        var certificates: [Certificate] = []
        for (index, der) in chain.enumerated() {
            do {
                certificates.append(try Certificate(derEncoded: der))
            } catch {
                throw AttestationError(.malformedCertificate, "certificate \(index) does not parse: \(error)")
            }
        }
        return certificates
    }

    /// Checks the chain; returns normally when it is trusted at `time`.
    /// - Throws: ``AttestationError``: `chain_invalid`, `untrusted_root`, `certificate_outside_validity` or
    ///   `certificate_revoked`.
    func validate(_ chain: [Certificate], at time: Date) throws(AttestationError) {
        for (index, certificate) in chain.enumerated() {
            if let entry = statusList.entry(forSerial: certificate.serialNumber.bytes) {
                let serial = certificate.serialNumber
                throw AttestationError(.certificateRevoked, "certificate \(index) (\(serial)) is \(entry.status)")
            }
        }
        let path = isAnchorCopy(chain.last) ? Array(chain.dropLast()) : chain
        guard let top = path.last else {
            throw AttestationError(.chainInvalid, "the chain holds nothing but a root")
        }
        for (index, certificate) in path.enumerated() {
            if index > 0 { try requireCertificateAuthority(certificate, index: index) }
            if index + 1 < path.count {
                try requireSignature(of: certificate, index: index, by: path[index + 1])
            }
        }
        guard anchors.contains(where: { $0.subject == top.issuer && isSignature(of: top, by: $0) }) else {
            throw AttestationError(.untrustedRoot, "no trusted root signed certificate \(path.count - 1)")
        }
        // Compared one bound at a time: a certificate may state a notAfter before its notBefore.
        if let index = path.firstIndex(where: { !($0.notValidBefore <= time && time <= $0.notValidAfter) }) {
            let validity = "\(path[index].notValidBefore) to \(path[index].notValidAfter)"
            throw AttestationError(.certificateOutsideValidity, "certificate \(index): \(validity), not \(time)")
        }
    }

    /// Whether `certificate` is a self-signed copy of an anchor: the same subject and public key.
    private func isAnchorCopy(_ certificate: Certificate?) -> Bool {
        guard let certificate, certificate.subject == certificate.issuer else { return false }
        return anchors.contains { $0.subject == certificate.subject && $0.publicKey == certificate.publicKey }
    }

    private func requireSignature(
        of certificate: Certificate, index: Int, by issuer: Certificate
    ) throws(AttestationError) {
        guard certificate.issuer == issuer.subject, isSignature(of: certificate, by: issuer) else {
            throw AttestationError(.chainInvalid, "certificate \(index) is not signed by certificate \(index + 1)")
        }
    }

    private func isSignature(of certificate: Certificate, by issuer: Certificate) -> Bool {
        issuer.publicKey.isValidSignature(certificate.signature, for: certificate)
    }

    /// An issuer must say it is a CA (Basic Constraints) and, when it limits its key's usage, allow certificate
    /// signing (RFC 5280 §4.2.1.3, §4.2.1.9).
    private func requireCertificateAuthority(_ certificate: Certificate, index: Int) throws(AttestationError) {
        let constraints: BasicConstraints?
        let usage: KeyUsage?
        do {
            constraints = try certificate.extensions.basicConstraints
            usage = try certificate.extensions.keyUsage
        } catch {
            throw AttestationError(.chainInvalid, "certificate \(index)'s extensions do not parse: \(error)")
        }
        guard case .isCertificateAuthority = constraints, usage?.keyCertSign ?? true else {
            throw AttestationError(.chainInvalid, "certificate \(index) issues certificates but may not")
        }
    }
}
