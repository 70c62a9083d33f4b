import Crypto
import Foundation
import Testing
@testable import TouchstoneWebAuthn
import TouchstoneWebAuthnTestSupport

/// Each step of WebAuthn §7.2 that can fail, driven to fail on its own (the expected code pins the step).
@Suite struct AuthenticationStepTests {
    let challenge = [UInt8](repeating: 0x24, count: 32)
    let authenticator = SoftAuthenticator(seed: 10)

    func credential(
        flags: AuthenticatorFlags = [.userPresent, .userVerified], signCount: UInt32 = 0,
        of authenticator: SoftAuthenticator? = nil
    ) async throws -> Credential {
        let source = authenticator ?? self.authenticator
        return try await Fixtures.registrationVerifier().verify(
            clientDataJSON: source.register(challenge: challenge, flags: flags, signCount: signCount).clientDataJSON,
            attestationObject: source.register(challenge: challenge, flags: flags, signCount: signCount).attestationObject,
            expecting: RegistrationExpectations(challenge: challenge, userHandle: Fixtures.userHandle, requiresUserVerification: false),
            now: Fixtures.now
        ).credential
    }

    func verify(
        _ assertion: SoftAuthenticator.Assertion, credential: Credential, credentialID: [UInt8]? = nil,
        userHandle: [UInt8]? = nil, expectations: AuthenticationExpectations? = nil,
        verifier: AuthenticationVerifier = Fixtures.authenticationVerifier()
    ) throws -> AuthenticationResult {
        try verifier.verify(
            credentialID: credentialID ?? credential.id, clientDataJSON: assertion.clientDataJSON,
            authenticatorData: assertion.authenticatorData, signature: assertion.signature, userHandle: userHandle,
            expecting: expectations ?? AuthenticationExpectations(challenge: challenge, identifiedUser: Fixtures.userHandle),
            credential: credential)
    }

    @Test func returnsTheNewState() async throws {
        let stored = try await credential(flags: [.userPresent, .backupEligible], signCount: 3)
        #expect(!stored.uvInitialized)
        let result = try verify(
            authenticator.assert(challenge: challenge, flags: [.userPresent, .userVerified, .backupEligible, .backupState], signCount: 9),
            credential: stored)
        #expect(result.signCount == 9)
        #expect(result.backupEligible && result.backupState && result.userVerified)
        #expect(result.userHandle == Fixtures.userHandle)
        var updated = stored
        try updated.update(from: result)
        #expect(updated.signCount == 9 && updated.backupState && updated.uvInitialized)
        let other = try await credential(of: SoftAuthenticator(seed: 11))
        var wrong = other
        expectError(.credentialNotAllowed, sync: { try wrong.update(from: result) })
    }

    @Test func step5RequiresACredentialFromAllowCredentials() async throws {
        let stored = try await credential()
        let assertion = authenticator.assert(challenge: challenge)
        let elsewhere = AuthenticationExpectations(challenge: challenge, allowedCredentialIDs: [[9, 9, 9]], identifiedUser: Fixtures.userHandle)
        expectError(.credentialNotAllowed, sync: { _ = try verify(assertion, credential: stored, expectations: elsewhere) })
        let listed = AuthenticationExpectations(challenge: challenge, allowedCredentialIDs: [[9], stored.id], identifiedUser: Fixtures.userHandle)
        _ = try verify(assertion, credential: stored, expectations: listed)
    }

    @Test func step6IdentifiesTheUserAndTheCredentialRecord() async throws {
        let stored = try await credential()
        let assertion = authenticator.assert(challenge: challenge)
        // The record must be the asserted credential's.
        expectError(.credentialNotAllowed, sync: { _ = try verify(assertion, credential: stored, credentialID: [1, 2, 3]) })
        // Identified user: the credential must be the account's, and a userHandle must be the account's.
        let otherUser = AuthenticationExpectations(challenge: challenge, identifiedUser: Array("someone-else".utf8))
        expectError(.credentialNotAllowed, sync: { _ = try verify(assertion, credential: stored, expectations: otherUser) })
        expectError(.userHandleMismatch, sync: { _ = try verify(assertion, credential: stored, userHandle: [7]) })
        _ = try verify(assertion, credential: stored, userHandle: Fixtures.userHandle)
        // Discoverable: userHandle is required and must name the credential's account.
        let discoverable = AuthenticationExpectations(challenge: challenge)
        expectError(.userHandleMissing, sync: { _ = try verify(assertion, credential: stored, expectations: discoverable) })
        expectError(.userHandleMismatch, sync: { _ = try verify(assertion, credential: stored, userHandle: [7], expectations: discoverable) })
        _ = try verify(assertion, credential: stored, userHandle: Fixtures.userHandle, expectations: discoverable)
    }

    @Test func step7RefusesMalformedAuthenticatorData() async throws {
        let stored = try await credential()
        var assertion = authenticator.assert(challenge: challenge)
        for bytes in [Array(assertion.authenticatorData.prefix(36)), assertion.authenticatorData + [0]] {
            assertion.authenticatorData = bytes
            expectError(.malformedAuthenticatorData, sync: { _ = try verify(assertion, credential: stored) })
        }
    }

    @Test func steps8And9RefuseClientDataThatIsNotUTF8JSON() async throws {
        let stored = try await credential()
        for json in [[0xc3, 0x28], Array("{".utf8), Array(#"{"type":"webauthn.get"}"#.utf8)] {
            expectError(.malformedClientData, sync: {
                _ = try verify(authenticator.assert(challenge: challenge, clientDataJSON: json), credential: stored)
            })
        }
    }

    @Test func step10RefusesTheWrongType() async throws {
        let stored = try await credential()
        let json = SoftAuthenticator.clientData(type: "webauthn.create", challenge: challenge, origin: "https://example.org")
        expectError(.clientDataTypeMismatch, sync: {
            _ = try verify(authenticator.assert(challenge: challenge, clientDataJSON: json), credential: stored)
        })
    }

    @Test func step11RefusesAnotherChallenge() async throws {
        let stored = try await credential()
        expectError(.challengeMismatch, sync: { _ = try verify(authenticator.assert(challenge: [1] + challenge), credential: stored) })
    }

    @Test func step12RefusesOtherOrigins() async throws {
        let stored = try await credential()
        var phishing = authenticator
        phishing.origin = "https://example.org.evil.example"
        expectError(.originNotAllowed, sync: { _ = try verify(phishing.assert(challenge: challenge), credential: stored) })
    }

    @Test func step13RefusesCrossOriginUnlessAllowed() async throws {
        let stored = try await credential()
        let json = SoftAuthenticator.clientData(type: "webauthn.get", challenge: challenge, origin: "https://example.org", crossOrigin: true)
        let assertion = authenticator.assert(challenge: challenge, clientDataJSON: json)
        expectError(.crossOriginNotAllowed, sync: { _ = try verify(assertion, credential: stored) })
        _ = try verify(assertion, credential: stored, verifier: Fixtures.authenticationVerifier(crossOrigin: .allowed(topOrigins: [])))
    }

    @Test func step14ChecksTopOrigin() async throws {
        let stored = try await credential()
        let json = SoftAuthenticator.clientData(
            type: "webauthn.get", challenge: challenge, origin: "https://example.org", crossOrigin: true, topOrigin: "https://shop.example")
        let assertion = authenticator.assert(challenge: challenge, clientDataJSON: json)
        expectError(.crossOriginNotAllowed, sync: { _ = try verify(assertion, credential: stored) })
        expectError(.topOriginNotAllowed, sync: {
            _ = try verify(assertion, credential: stored, verifier: Fixtures.authenticationVerifier(crossOrigin: .allowed(topOrigins: ["https://a.example"])))
        })
        _ = try verify(assertion, credential: stored, verifier: Fixtures.authenticationVerifier(crossOrigin: .allowed(topOrigins: ["https://shop.example"])))
    }

    @Test func step15RefusesAnotherRPIDHash() async throws {
        let stored = try await credential()
        var other = authenticator
        other.rpID = "example.com"
        expectError(.rpIdHashMismatch, sync: { _ = try verify(other.assert(challenge: challenge), credential: stored) })
    }

    @Test func step16RequiresUserPresence() async throws {
        let stored = try await credential()
        expectError(.userNotPresent, sync: { _ = try verify(authenticator.assert(challenge: challenge, flags: [.userVerified]), credential: stored) })
    }

    @Test func step17RequiresUserVerificationWhenAsked() async throws {
        let stored = try await credential()
        let assertion = authenticator.assert(challenge: challenge, flags: [.userPresent])
        expectError(.userNotVerified, sync: { _ = try verify(assertion, credential: stored) })
        let relaxed = AuthenticationExpectations(challenge: challenge, requiresUserVerification: false, identifiedUser: Fixtures.userHandle)
        #expect(try !verify(assertion, credential: stored, expectations: relaxed).userVerified)
    }

    @Test func step18RefusesBackupStateWithoutEligibility() async throws {
        let stored = try await credential()
        expectError(.backupStateWithoutEligibility, sync: {
            _ = try verify(authenticator.assert(challenge: challenge, flags: [.userPresent, .userVerified, .backupState]), credential: stored)
        })
    }

    @Test func step19KeepsBackupEligibilityConstantAndLetsBackupStateChange() async throws {
        let notEligible = try await credential()
        expectError(.backupEligibilityChanged, sync: {
            _ = try verify(authenticator.assert(challenge: challenge, flags: [.userPresent, .userVerified, .backupEligible]), credential: notEligible)
        })
        let eligible = try await credential(flags: [.userPresent, .userVerified, .backupEligible, .backupState])
        expectError(.backupEligibilityChanged, sync: {
            _ = try verify(authenticator.assert(challenge: challenge), credential: eligible)
        })
        let result = try verify(authenticator.assert(challenge: challenge, flags: [.userPresent, .userVerified, .backupEligible]), credential: eligible)
        #expect(!result.backupState)
    }

    @Test func step20IgnoresUnsolicitedAuthenticatorExtensions() async throws {
        let stored = try await credential()
        let extensions = CBOREncoder.map([(.text("example.extension"), .bool(true))])
        let result = try verify(authenticator.assert(challenge: challenge, extensions: extensions), credential: stored)
        #expect(result.authenticatorExtensions?[text: "example.extension"] == .bool(true))
    }

    @Test func step22VerifiesTheSignatureOverAuthenticatorDataAndTheClientDataHash() async throws {
        let stored = try await credential()
        let good = authenticator.assert(challenge: challenge)
        var flipped = good
        flipped.signature[flipped.signature.count - 1] ^= 0x01
        var swapped = good
        swapped.signature = authenticator.sign(Array(SHA256.hash(data: good.clientDataJSON)) + good.authenticatorData)
        var otherClientData = good
        otherClientData.clientDataJSON.insert(0x20, at: otherClientData.clientDataJSON.count - 1)  // same JSON, other bytes
        var otherKey = good
        otherKey.signature = SoftAuthenticator(seed: 12).sign(good.authenticatorData + Array(SHA256.hash(data: good.clientDataJSON)))
        var raw = good
        raw.signature = Array(raw.signature.suffix(64))
        for assertion in [flipped, swapped, otherClientData, otherKey, raw] {
            expectError(.signatureInvalid, sync: { _ = try verify(assertion, credential: stored) })
        }
        _ = try verify(good, credential: stored)
        // Ed25519 credentials verify with their own algorithm.
        let ed = SoftAuthenticator(seed: 13, algorithm: .edDSA)
        let edCredential = try await credential(of: ed)
        _ = try verify(ed.assert(challenge: challenge), credential: edCredential)
        var edFlipped = ed.assert(challenge: challenge)
        edFlipped.signature[0] ^= 0x80
        expectError(.signatureInvalid, sync: { _ = try verify(edFlipped, credential: edCredential) })
    }

    @Test(arguments: [
        (UInt32(0), UInt32(0), true), (0, 1, true), (5, 6, true), (5, 1_000_000, true),
        (5, 5, false), (5, 4, false), (5, 0, false), (UInt32.max, 0, false), (UInt32.max, UInt32.max, false),
    ])
    func step23SignCountMustIncreaseUnlessBothAreZero(stored: UInt32, received: UInt32, accepted: Bool) async throws {
        let record = try await credential(signCount: stored)
        let assertion = authenticator.assert(challenge: challenge, signCount: received)
        if accepted {
            #expect(try verify(assertion, credential: record).signCount == received)
        } else {
            expectError(.credentialPossiblyCloned, sync: { _ = try verify(assertion, credential: record) })
        }
    }

    @Test func aReplayedAssertionIsCaughtByTheCounterOnceStored() async throws {
        var stored = try await credential(signCount: 1)
        let assertion = authenticator.assert(challenge: challenge, signCount: 2)
        try stored.update(from: try verify(assertion, credential: stored))
        expectError(.credentialPossiblyCloned, sync: { _ = try verify(assertion, credential: stored) })
    }
}
