import Foundation
import Testing
import TouchstoneAttestation
import TouchstoneWebAuthnTestSupport

/// Additional roots come only as one PEM certificate per text.
struct AttestationTrustAnchorsTests {
    @Test func onePEMCertificatePerTextIsAccepted() throws {
        let fixture = AppAttestFixture()
        let pem = try fixture.rootPEM()
        #expect(throws: Never.self) { try AttestationTrustAnchors(insecureAdditionalRootsPEM: [pem]) }
        #expect(throws: Never.self) { try AttestationTrustAnchors(insecureAdditionalRootsPEM: []) }
    }

    @Test func otherTextsAreRefused() throws {
        let pem = try AppAttestFixture().rootPEM()
        let key = "-----BEGIN PRIVATE KEY-----\nMAA=\n-----END PRIVATE KEY-----\n"
        let broken = pem.replacingOccurrences(of: "\n-----END", with: "AAAA\n-----END")
        for text in ["", "not a certificate", pem + pem, key, broken] {
            let error = #expect(throws: AttestationError.self) { try AttestationTrustAnchors(insecureAdditionalRootsPEM: [pem, text]) }
            #expect(error?.code == .invalidTrustAnchor)
            #expect(error?.detail.contains("root 2") == true)
        }
    }
}
