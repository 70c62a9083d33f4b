import Foundation
@_spi(FixedExpiryValidationTime) import X509
import SwiftASN1

/// RFC 5280 path validation at a given time, for attestation trust paths. It also claims the critical extensions
/// that the format's own verification procedure has already checked (for TPM: Subject Alternative Name and
/// Extended Key Usage), so that a chain is not refused for carrying them.
struct AttestationChainPolicy: VerifierPolicy {
    let verifyingCriticalExtensions: [ASN1ObjectIdentifier]
    private let rfc5280: RFC5280Policy

    init(validationTime: Date, checkedCriticalExtensions: [ASN1ObjectIdentifier]) {
        rfc5280 = RFC5280Policy(fixedExpiryValidationTime: validationTime)
        verifyingCriticalExtensions = rfc5280.verifyingCriticalExtensions + checkedCriticalExtensions
    }

    func chainMeetsPolicyRequirements(chain: UnverifiedCertificateChain) -> PolicyEvaluationResult {
        rfc5280.chainMeetsPolicyRequirements(chain: chain)
    }
}
