import SwiftASN1
import X509

/// The roots an attestation chain may end at: the built-in ones (Google's key attestation roots for Android, the Apple
/// App Attestation Root CA for App Attest), plus any the operator adds.
///
/// An Android chain is anchored by subject and public key: it may end in another self-signed copy of a trusted root
/// (older devices carry 2016 and 2019 copies of Google's RSA root), and the trust moves to the anchor there.
public struct AttestationTrustAnchors: Sendable {
    /// The roots for Android key attestation chains.
    let android: [Certificate]
    /// The roots for Apple App Attest chains.
    let apple: [Certificate]

    /// The built-in roots only: what production uses.
    public init() {
        self.init(insecureAdditionalRoots: [])
    }

    /// The built-in roots plus `insecureAdditionalRoots`, each trusted for both formats.
    ///
    /// ⚠️ Every additional root can vouch for any key: use it for tests and private CAs only (the server's
    /// `--insecure-attestation-root`).
    public init(insecureAdditionalRoots: [Certificate]) {
        android = BuiltInAttestationRoots.google + insecureAdditionalRoots
        apple = BuiltInAttestationRoots.apple + insecureAdditionalRoots
    }

    /// The built-in roots plus one certificate from each PEM text (one `CERTIFICATE` block per text).
    ///
    /// ⚠️ As ``init(insecureAdditionalRoots:)``: for tests and private CAs only.
    /// - Throws: ``AttestationError`` with code ``AttestationError/Code/invalidTrustAnchor`` naming the text that is
    ///   not exactly one PEM certificate.
    public init(insecureAdditionalRootsPEM texts: [String]) throws(AttestationError) {
        var roots: [Certificate] = []
        for (index, text) in texts.enumerated() {
            let documents: [PEMDocument]
            do {
                documents = try PEMDocument.parseMultiple(pemString: text)
            } catch {
                throw AttestationError(.invalidTrustAnchor, "additional root \(index + 1) is not PEM: \(error)")
            }
            guard documents.count == 1, let document = documents.first, document.discriminator == "CERTIFICATE" else {
                throw AttestationError(.invalidTrustAnchor, "additional root \(index + 1) is not one PEM certificate")
            }
            do {
                roots.append(try Certificate(pemDocument: document))
            } catch {
                throw AttestationError(.invalidTrustAnchor, "additional root \(index + 1) does not parse: \(error)")
            }
        }
        self.init(insecureAdditionalRoots: roots)
    }
}
