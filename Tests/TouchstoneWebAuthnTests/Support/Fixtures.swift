import Foundation
import Testing
@testable import TouchstoneWebAuthn

/// Shared configuration for the tests: the §16 relying party and clock.
enum Fixtures {
    /// A time inside the §16 certificates' validity (2024-01-01 to 3024-01-01).
    static let now = Date(timeIntervalSince1970: 1_750_000_000)
    static let userHandle: [UInt8] = Array("user-handle-0001".utf8)

    static func relyingParty(crossOrigin: CrossOriginPolicy = .refused) -> RelyingPartyConfiguration {
        do {
            return try RelyingPartyConfiguration(
                id: "example.org", name: "Example", origins: ["https://example.org"], crossOrigin: crossOrigin)
        } catch {
            preconditionFailure("\(error)")
        }
    }

    /// Direct attestation chained to the §16.1 root, while still accepting none and self attestation.
    static let vectorPolicy: AttestationPolicy = {
        guard let root = try? AttestationPolicy.required(trustAnchorsDER: [W3CVector.rootCertificate]) else {
            preconditionFailure("§16.1 root does not parse")
        }
        var policy = root
        policy.formats.insert(.none)
        policy.acceptsNoAttestation = true
        policy.acceptsSelfAttestation = true
        return policy
    }()

    static func registrationVerifier(
        crossOrigin: CrossOriginPolicy = .refused, policy: AttestationPolicy = vectorPolicy
    ) -> RegistrationVerifier {
        RegistrationVerifier(relyingParty: relyingParty(crossOrigin: crossOrigin), attestationPolicy: policy)
    }

    static func authenticationVerifier(crossOrigin: CrossOriginPolicy = .refused) -> AuthenticationVerifier {
        AuthenticationVerifier(relyingParty: relyingParty(crossOrigin: crossOrigin))
    }

    /// The cross-origin policy under which a §16 vector is meant to pass.
    static func crossOrigin(for vector: W3CVector) -> CrossOriginPolicy {
        vector.crossOrigin ? .allowed(topOrigins: ["https://example.com"]) : .refused
    }

    /// Registers a §16 vector (UV not required), returning the verified registration.
    static func register(
        _ vector: W3CVector, requiresUserVerification: Bool = false, policy: AttestationPolicy = vectorPolicy,
        now: Date = now
    ) async throws -> VerifiedRegistration {
        try await registrationVerifier(crossOrigin: crossOrigin(for: vector), policy: policy).verify(
            clientDataJSON: vector.registrationClientData, attestationObject: vector.attestationObject,
            expecting: RegistrationExpectations(
                challenge: vector.registrationChallenge, userHandle: userHandle,
                requiresUserVerification: requiresUserVerification),
            now: now)
    }
}

/// Expects `body` to throw a ``WebAuthnError`` with `code`.
func expectError(
    _ code: WebAuthnError.Code, _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> Void
) async {
    let error = await #expect(throws: WebAuthnError.self, comment, sourceLocation: sourceLocation) { try await body() }
    #expect(error?.code == code, "got \(error.map { "\($0)" } ?? "nothing")", sourceLocation: sourceLocation)
}

/// Expects `body` to throw a ``WebAuthnError`` with `code` (synchronous bodies).
func expectError(
    _ code: WebAuthnError.Code, _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation,
    sync body: () throws -> Void
) {
    let error = #expect(throws: WebAuthnError.self, comment, sourceLocation: sourceLocation) { try body() }
    #expect(error?.code == code, "got \(error.map { "\($0)" } ?? "nothing")", sourceLocation: sourceLocation)
}
