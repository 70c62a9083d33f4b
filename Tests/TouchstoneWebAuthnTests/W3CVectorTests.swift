import Foundation
import Testing
@testable import TouchstoneWebAuthn

/// The fifteen WebAuthn Level 3 §16 test vectors through the §7.1 and §7.2 verifiers.
@Suite struct W3CVectorTests {
    static let expectedTypes: [String: AttestationType] = [
        "16.2": .none, "16.3": .selfAttestation, "16.4": .none, "16.5": .none, "16.6": .none,
        "16.7": .basicOrAttestationCA, "16.8": .basicOrAttestationCA, "16.9": .basicOrAttestationCA,
        "16.10": .basicOrAttestationCA, "16.11": .basicOrAttestationCA, "16.13": .attestationCA, "16.14": .basic,
        "16.15": .anonymizationCA, "16.16": .basicOrAttestationCA,
    ]

    @Test func allFifteenVectorsAreLoaded() {
        #expect(W3CVector.all.count == 15)
        #expect(W3CVector.rootCertificate.count > 500)
    }

    @Test(arguments: W3CVector.all)
    func registersAndAuthenticatesWhenUserVerificationIsNotRequired(_ vector: W3CVector) async throws {
        if vector.section == "16.12" {
            // Ed448 (-53) is not supported by swift-crypto: refused cleanly at registration.
            await expectError(.unsupportedAlgorithm) { _ = try await Fixtures.register(vector) }
            return
        }
        let registration = try await Fixtures.register(vector)
        let credential = registration.credential
        let regFlags = AuthenticatorFlags(rawValue: vector.attestationObject.isEmpty ? 0 : registration.authenticatorData.bytes[32])
        #expect(credential.id == vector.credentialID)
        #expect(credential.aaguid == Hex.bytes(vector.aaguid))
        #expect(credential.attestationFormat == vector.format)
        #expect(credential.attestationType == Self.expectedTypes[vector.section])
        #expect(registration.credentialPublicKey.algorithm.rawValue == vector.alg)
        #expect(credential.signCount == 0)
        #expect(credential.userHandle == Fixtures.userHandle)
        #expect(credential.backupEligible == regFlags.contains(.backupEligible))
        #expect(credential.backupState == regFlags.contains(.backupState))
        #expect(registration.userVerified == vector.registrationUV)
        #expect(registration.trustPath.isEmpty == [AttestationType.none, .selfAttestation].contains(credential.attestationType))

        let result = try Fixtures.authenticationVerifier(crossOrigin: Fixtures.crossOrigin(for: vector)).verify(
            credentialID: vector.credentialID, clientDataJSON: vector.authenticationClientData,
            authenticatorData: vector.authenticatorData, signature: vector.signature, userHandle: nil,
            expecting: AuthenticationExpectations(
                challenge: vector.authenticationChallenge, requiresUserVerification: false,
                allowedCredentialIDs: [vector.credentialID], identifiedUser: Fixtures.userHandle),
            credential: credential)
        let assertionFlags = AuthenticatorFlags(rawValue: vector.authenticatorData[32])
        #expect(result.signCount == 0)  // 0 after 0: no counter, accepted
        #expect(result.userVerified == vector.assertionUV)
        #expect(result.backupEligible == credential.backupEligible)
        #expect(result.backupState == assertionFlags.contains(.backupState))
        var updated = credential
        try updated.update(from: result)
        #expect(updated.backupState == result.backupState)
    }

    @Test func backupStateChangesAreReportedAsTheREADMEDescribes() async throws {
        for (section, before, after) in [("16.3", true, false), ("16.8", true, false), ("16.14", true, false), ("16.9", false, true)] {
            let vector = W3CVector.section(section)
            let credential = try await Fixtures.register(vector).credential
            #expect(credential.backupEligible)
            #expect(credential.backupState == before, "§\(section)")
            let result = try Fixtures.authenticationVerifier().verify(
                credentialID: vector.credentialID, clientDataJSON: vector.authenticationClientData,
                authenticatorData: vector.authenticatorData, signature: vector.signature, userHandle: nil,
                expecting: AuthenticationExpectations(
                    challenge: vector.authenticationChallenge, requiresUserVerification: false,
                    identifiedUser: Fixtures.userHandle),
                credential: credential)
            #expect(result.backupState == after, "§\(section)")
        }
        for section in ["16.4", "16.5", "16.11", "16.16"] {
            #expect(try await !Fixtures.register(W3CVector.section(section)).credential.backupEligible)
        }
    }

    @Test(arguments: W3CVector.all.filter { $0.section != "16.12" })
    func userVerificationRequiredRefusesVectorsWithoutUV(_ vector: W3CVector) async throws {
        guard vector.registrationUV else {
            await expectError(.userNotVerified) { _ = try await Fixtures.register(vector, requiresUserVerification: true) }
            return
        }
        let credential = try await Fixtures.register(vector, requiresUserVerification: true).credential
        let verify = {
            try Fixtures.authenticationVerifier(crossOrigin: Fixtures.crossOrigin(for: vector)).verify(
                credentialID: vector.credentialID, clientDataJSON: vector.authenticationClientData,
                authenticatorData: vector.authenticatorData, signature: vector.signature, userHandle: nil,
                expecting: AuthenticationExpectations(
                    challenge: vector.authenticationChallenge, requiresUserVerification: true,
                    identifiedUser: Fixtures.userHandle),
                credential: credential)
        }
        if vector.assertionUV {
            #expect(try verify().userVerified)
        } else {
            expectError(.userNotVerified, sync: { _ = try verify() })
        }
    }

    @Test func crossOriginVectorsFailUnlessAllowed() async throws {
        for section in ["16.4", "16.5"] {
            let vector = W3CVector.section(section)
            let expectations = RegistrationExpectations(
                challenge: vector.registrationChallenge, userHandle: Fixtures.userHandle, requiresUserVerification: false)
            await expectError(.crossOriginNotAllowed, "§\(section) registration") {
                _ = try await Fixtures.registrationVerifier().verify(
                    clientDataJSON: vector.registrationClientData, attestationObject: vector.attestationObject,
                    expecting: expectations, now: Fixtures.now)
            }
            let credential = try await Fixtures.register(vector).credential
            expectError(.crossOriginNotAllowed, "§\(section) assertion") {
                _ = try Fixtures.authenticationVerifier().verify(
                    credentialID: vector.credentialID, clientDataJSON: vector.authenticationClientData,
                    authenticatorData: vector.authenticatorData, signature: vector.signature, userHandle: nil,
                    expecting: AuthenticationExpectations(
                    challenge: vector.authenticationChallenge, requiresUserVerification: false,
                    identifiedUser: Fixtures.userHandle),
                    credential: credential)
            }
        }
        // §16.5's top origin must be on the allowed list.
        let vector = W3CVector.section("16.5")
        let elsewhere = CrossOriginPolicy.allowed(topOrigins: ["https://partner.example"])
        await expectError(.topOriginNotAllowed) {
            _ = try await Fixtures.registrationVerifier(crossOrigin: elsewhere).verify(
                clientDataJSON: vector.registrationClientData, attestationObject: vector.attestationObject,
                expecting: RegistrationExpectations(
                    challenge: vector.registrationChallenge, userHandle: Fixtures.userHandle, requiresUserVerification: false),
                now: Fixtures.now)
        }
        // §16.4 has no top origin: allowing cross-origin use with any list accepts it.
        let crossOnly = W3CVector.section("16.4")
        _ = try await Fixtures.registrationVerifier(crossOrigin: .allowed(topOrigins: [])).verify(
            clientDataJSON: crossOnly.registrationClientData, attestationObject: crossOnly.attestationObject,
            expecting: RegistrationExpectations(
                challenge: crossOnly.registrationChallenge, userHandle: Fixtures.userHandle, requiresUserVerification: false),
            now: Fixtures.now)
    }
}
