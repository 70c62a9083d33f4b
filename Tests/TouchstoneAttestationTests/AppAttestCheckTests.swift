import Crypto
import Foundation
import Testing
import TouchstoneAttestation
import TouchstoneWebAuthnTestSupport
import X509

/// Each App Attest check on its own, with attestations built under an insecurely trusted test root.
struct AppAttestCheckTests {
    static func verify(_ fixture: AppAttestFixture, allowsDevelopment: Bool = false) throws -> AppAttestation {
        let anchors = try AttestationTrustAnchors(insecureAdditionalRootsPEM: [try fixture.rootPEM()])
        let verifier = AppAttestVerifier(
            trustAnchors: anchors, policy: AppAttestPolicy(allowedAppIDs: [AppAttestFixture.appID], allowsDevelopment: allowsDevelopment))
        return try verifier.verify(
            attestationObject: try fixture.attestationObject(), keyID: fixture.keyID, clientDataHash: fixture.clientDataHash,
            at: AppAttestFixture.time)
    }

    static func expectRefused(_ code: AttestationError.Code, _ fixture: AppAttestFixture, sourceLocation: SourceLocation = #_sourceLocation) {
        let error = #expect(throws: AttestationError.self, sourceLocation: sourceLocation) { try verify(fixture) }
        #expect(error?.code == code, sourceLocation: sourceLocation)
    }

    @Test func anAttestationUnderAnInsecureRootVerifies() throws {
        let fixture = AppAttestFixture()
        let attestation = try Self.verify(fixture)
        #expect(attestation.appID == AppAttestFixture.appID)
        #expect(attestation.environment == .production)
        #expect(attestation.keyID == fixture.keyID)
        #expect(attestation.publicKey.rawRepresentation == P256.Signing.PublicKey(fixture.leafKey.publicKey)?.rawRepresentation)
    }

    @Test func theTestRootIsNotTrustedByDefault() throws {
        let fixture = AppAttestFixture()
        let verifier = AppAttestVerifier(policy: AppAttestPolicy(allowedAppIDs: [AppAttestFixture.appID]))
        let error = #expect(throws: AttestationError.self) {
            try verifier.verify(
                attestationObject: try fixture.attestationObject(), keyID: fixture.keyID,
                clientDataHash: fixture.clientDataHash, at: AppAttestFixture.time)
        }
        #expect(error?.code == .untrustedRoot)
    }

    @Test func anIntermediateMustBeACertificateAuthorityThatMaySignCertificates() throws {
        var fixture = AppAttestFixture()
        fixture.intermediate = try Certificate.Extensions {
            Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
            Critical(KeyUsage(keyCertSign: true))
        }
        #expect(try Self.verify(fixture).keyID == fixture.keyID)
        fixture.intermediate = try Certificate.Extensions { Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0)) }
        #expect(try Self.verify(fixture).keyID == fixture.keyID)

        fixture.intermediate = try Certificate.Extensions { Critical(BasicConstraints.notCertificateAuthority) }
        Self.expectRefused(.chainInvalid, fixture)
        fixture.intermediate = Certificate.Extensions()
        Self.expectRefused(.chainInvalid, fixture)
        fixture.intermediate = try Certificate.Extensions {
            Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
            Critical(KeyUsage(digitalSignature: true))
        }
        Self.expectRefused(.chainInvalid, fixture)
    }

    @Test func theCounterMustBeZero() {
        var fixture = AppAttestFixture()
        fixture.counter = 1
        Self.expectRefused(.counterNotZero, fixture)
    }

    @Test func theRPIDMustHashAnAllowedAppID() {
        var fixture = AppAttestFixture()
        fixture.rpID = "ABCDE12345.com.example.other"
        Self.expectRefused(.appIDNotAllowed, fixture)
    }

    @Test func theCredentialIDMustBeTheKeyID() {
        var fixture = AppAttestFixture()
        fixture.credentialID = Array(repeating: 7, count: 32)
        Self.expectRefused(.credentialIDMismatch, fixture)
    }

    @Test func anUnknownAAGUIDIsRefused() {
        var fixture = AppAttestFixture()
        fixture.aaguid = Array(repeating: 0, count: 16)
        Self.expectRefused(.environmentNotAllowed, fixture)
    }

    @Test func developmentNeedsTheAppToAllowIt() throws {
        var fixture = AppAttestFixture()
        fixture.aaguid = Array("appattestdevelop".utf8)
        Self.expectRefused(.environmentNotAllowed, fixture)
        #expect(try Self.verify(fixture, allowsDevelopment: true).environment == .development)
    }

    @Test func aLeafKeyOtherThanP256IsRefused() {
        var fixture = AppAttestFixture()
        fixture.leafKey = Certificate.PrivateKey(P384.Signing.PrivateKey())
        Self.expectRefused(.keyIDMismatch, fixture)
    }

    /// iOS 27 sends extension bytes after the credential key with the ED flag clear; the nonce covers them.
    @Test func extensionBytesAfterTheKeyWithEDClearAreTolerated() throws {
        var fixture = AppAttestFixture()
        fixture.trailing = [0xa1, 0x61, 0x61, 0x01]
        #expect(try Self.verify(fixture).keyID == fixture.keyID)
    }

    @Test func authenticatorDataThatDisagreesWithItsFlagsIsRefused() {
        var extensionFlag = AppAttestFixture()
        extensionFlag.flags = 0xc0
        Self.expectRefused(.malformedAuthenticatorData, extensionFlag)
        var noAttestedData = AppAttestFixture()
        noAttestedData.flags = 0x00
        Self.expectRefused(.malformedAuthenticatorData, noAttestedData)
    }
}
