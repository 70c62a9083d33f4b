import Foundation
import Testing
@testable import TouchstoneWebAuthn

/// Tampered copies of the §16 vectors: every one must fail.
@Suite struct W3CTamperTests {
    static let usable = W3CVector.all.filter { $0.section != "16.12" }
    static let signed = usable.filter { $0.format != "none" }
    static let withCertificates = usable.filter { !["none"].contains($0.format) && $0.section != "16.3" }

    func register(
        _ vector: W3CVector, clientDataJSON: [UInt8]? = nil, attestationObject: [UInt8]? = nil,
        challenge: [UInt8]? = nil, relyingParty: RelyingPartyConfiguration? = nil,
        policy: AttestationPolicy = Fixtures.vectorPolicy, now: Date = Fixtures.now
    ) async throws {
        let rp = relyingParty ?? Fixtures.relyingParty(crossOrigin: Fixtures.crossOrigin(for: vector))
        _ = try await RegistrationVerifier(relyingParty: rp, attestationPolicy: policy).verify(
            clientDataJSON: clientDataJSON ?? vector.registrationClientData,
            attestationObject: attestationObject ?? vector.attestationObject,
            expecting: RegistrationExpectations(
                challenge: challenge ?? vector.registrationChallenge, userHandle: Fixtures.userHandle,
                requiresUserVerification: false),
            now: now)
    }

    func authenticate(
        _ vector: W3CVector, clientDataJSON: [UInt8]? = nil, authenticatorData: [UInt8]? = nil,
        signature: [UInt8]? = nil, challenge: [UInt8]? = nil, relyingParty: RelyingPartyConfiguration? = nil
    ) async throws {
        let credential = try await Fixtures.register(vector).credential
        let rp = relyingParty ?? Fixtures.relyingParty(crossOrigin: Fixtures.crossOrigin(for: vector))
        _ = try AuthenticationVerifier(relyingParty: rp).verify(
            credentialID: vector.credentialID, clientDataJSON: clientDataJSON ?? vector.authenticationClientData,
            authenticatorData: authenticatorData ?? vector.authenticatorData, signature: signature ?? vector.signature,
            userHandle: nil,
            expecting: AuthenticationExpectations(
                challenge: challenge ?? vector.authenticationChallenge, requiresUserVerification: false,
                identifiedUser: Fixtures.userHandle),
            credential: credential)
    }

    /// clientDataJSON with one more space before its closing brace: the same JSON, different bytes.
    static func respaced(_ json: [UInt8]) -> [UInt8] {
        var copy = json
        copy.insert(0x20, at: copy.count - 1)
        return copy
    }

    /// The byte offset of the challenge value inside clientDataJSON.
    static func challengeOffset(_ json: [UInt8]) -> Int {
        let text = String(decoding: json, as: UTF8.self)
        guard let range = text.range(of: #""challenge":""#) else { preconditionFailure("no challenge") }
        return text.utf8.distance(from: text.startIndex, to: range.upperBound) + 2
    }

    // MARK: Registration

    @Test(arguments: usable)
    func registrationClientDataByteFlipped(_ vector: W3CVector) async {
        let json = vector.registrationClientData
        let flipped = AttestationObjectEditor.flip(json, at: Self.challengeOffset(json), mask: 0x02)
        await expectError(.challengeMismatch) { try await register(vector, clientDataJSON: flipped) }
    }

    @Test(arguments: signed)
    func registrationClientDataBytesChangedUnderASignature(_ vector: W3CVector) async {
        await expectError(.attestationInvalid) {
            try await register(vector, clientDataJSON: Self.respaced(vector.registrationClientData))
        }
    }

    @Test(arguments: signed)
    func registrationAuthenticatorDataByteFlipped(_ vector: W3CVector) async {
        // Byte 56 lies in the credential ID, which every format's signature covers (fido-u2f's does not cover the
        // counter or flags: only rpIdHash, clientDataHash, credential ID and key).
        let tampered = AttestationObjectEditor.edit(vector.attestationObject, authData: { AttestationObjectEditor.flip($0, at: 56) })
        await expectError(.attestationInvalid) { try await register(vector, attestationObject: tampered) }
    }

    @Test(arguments: signed.filter { $0.format != "apple" })
    func attestationSignatureByteFlipped(_ vector: W3CVector) async {
        let tampered = AttestationObjectEditor.edit(vector.attestationObject, statement: { statement in
            guard let sig = statement[text: "sig"]?.bytes else { preconditionFailure("no sig") }
            return AttestationObjectEditor.replacing("sig", with: .bytes(AttestationObjectEditor.flip(sig, at: -1)), in: statement)
        })
        await expectError(.attestationInvalid) { try await register(vector, attestationObject: tampered) }
    }

    @Test(arguments: withCertificates)
    func certificateSignatureByteFlipped(_ vector: W3CVector) async {
        let tampered = Self.editCertificate(vector) { AttestationObjectEditor.flip($0, at: -1) }
        await expectError(.attestationNotTrusted) { try await register(vector, attestationObject: tampered) }
    }

    @Test(arguments: withCertificates)
    func certificateBodyByteFlipped(_ vector: W3CVector) async {
        // Byte 15 lies in the serial number: the certificate still parses, but the CA's signature no longer covers it.
        let tampered = Self.editCertificate(vector) { AttestationObjectEditor.flip($0, at: 15) }
        await expectError(.attestationNotTrusted) { try await register(vector, attestationObject: tampered) }
    }

    static func editCertificate(_ vector: W3CVector, _ change: @escaping ([UInt8]) -> [UInt8]) -> [UInt8] {
        AttestationObjectEditor.edit(vector.attestationObject, statement: { statement in
            guard let chain = statement[text: "x5c"]?.array, let leaf = chain.first?.bytes else { preconditionFailure("no x5c") }
            return AttestationObjectEditor.replacing("x5c", with: .array([.bytes(change(leaf))] + chain.dropFirst()), in: statement)
        })
    }

    @Test(arguments: withCertificates)
    func certificatesOutsideTheirValidityOrFromAnotherRootAreNotTrusted(_ vector: W3CVector) async throws {
        await expectError(.attestationNotTrusted, "before 2024") {
            try await register(vector, now: Date(timeIntervalSince1970: 1_600_000_000))
        }
        await expectError(.attestationNotTrusted, "after 3024") {
            try await register(vector, now: Date(timeIntervalSince1970: 33_300_000_000))
        }
        var noAnchors = Fixtures.vectorPolicy
        noAnchors.trustAnchors = [:]
        await expectError(.attestationNotTrusted, "no anchors") { try await register(vector, policy: noAnchors) }
        // Under the passkey preset the same statement is accepted, as self attestation without a trust path.
        let rp = Fixtures.relyingParty(crossOrigin: Fixtures.crossOrigin(for: vector))
        let accepted = try await RegistrationVerifier(relyingParty: rp, attestationPolicy: .notRequired).verify(
            clientDataJSON: vector.registrationClientData, attestationObject: vector.attestationObject,
            expecting: RegistrationExpectations(
                challenge: vector.registrationChallenge, userHandle: Fixtures.userHandle, requiresUserVerification: false),
            now: Fixtures.now)
        #expect(accepted.attestationType == .selfAttestation)
        #expect(accepted.trustPath.isEmpty)
    }

    @Test(arguments: usable)
    func registrationWithWrongChallengeOriginOrRPID(_ vector: W3CVector) async throws {
        await expectError(.challengeMismatch) {
            try await register(vector, challenge: AttestationObjectEditor.flip(vector.registrationChallenge, at: 0))
        }
        let login = try RelyingPartyConfiguration(
            id: "example.org", name: "Example", origins: ["https://login.example.org"],
            crossOrigin: Fixtures.crossOrigin(for: vector))
        await expectError(.originNotAllowed) { try await register(vector, relyingParty: login) }
        let rpIdFlipped = AttestationObjectEditor.edit(vector.attestationObject, authData: { AttestationObjectEditor.flip($0, at: 0) })
        await expectError(.rpIdHashMismatch) { try await register(vector, attestationObject: rpIdFlipped) }
    }

    // MARK: Authentication

    @Test(arguments: usable)
    func assertionClientDataTampered(_ vector: W3CVector) async {
        let json = vector.authenticationClientData
        await expectError(.challengeMismatch) {
            try await authenticate(vector, clientDataJSON: AttestationObjectEditor.flip(json, at: Self.challengeOffset(json), mask: 0x02))
        }
        await expectError(.signatureInvalid) { try await authenticate(vector, clientDataJSON: Self.respaced(json)) }
    }

    @Test(arguments: usable)
    func assertionAuthenticatorDataByteFlipped(_ vector: W3CVector) async {
        await expectError(.signatureInvalid) {
            try await authenticate(vector, authenticatorData: AttestationObjectEditor.flip(vector.authenticatorData, at: 36))
        }
        await expectError(.rpIdHashMismatch) {
            try await authenticate(vector, authenticatorData: AttestationObjectEditor.flip(vector.authenticatorData, at: 5))
        }
        await expectError(.userNotPresent) {
            try await authenticate(vector, authenticatorData: AttestationObjectEditor.flip(vector.authenticatorData, at: 32, mask: 0x01))
        }
    }

    @Test(arguments: usable)
    func assertionSignatureByteFlipped(_ vector: W3CVector) async {
        await expectError(.signatureInvalid) {
            try await authenticate(vector, signature: AttestationObjectEditor.flip(vector.signature, at: -1))
        }
        await expectError(.signatureInvalid) {
            try await authenticate(vector, signature: AttestationObjectEditor.flip(vector.signature, at: vector.signature.count / 2))
        }
    }

    @Test(arguments: usable)
    func assertionWithWrongChallengeOriginOrRPID(_ vector: W3CVector) async throws {
        await expectError(.challengeMismatch) {
            try await authenticate(vector, challenge: AttestationObjectEditor.flip(vector.authenticationChallenge, at: 0))
        }
        let login = try RelyingPartyConfiguration(
            id: "example.org", name: "Example", origins: ["https://login.example.org"],
            crossOrigin: Fixtures.crossOrigin(for: vector))
        await expectError(.originNotAllowed) { try await authenticate(vector, relyingParty: login) }
        // The assertions of one vector do not verify with another vector's credential.
        let other = vector.section == "16.2" ? W3CVector.section("16.3") : W3CVector.section("16.2")
        let foreign = try await Fixtures.register(other).credential
        #expect(throws: WebAuthnError.self) {
            _ = try Fixtures.authenticationVerifier(crossOrigin: Fixtures.crossOrigin(for: vector)).verify(
                credentialID: foreign.id, clientDataJSON: vector.authenticationClientData,
                authenticatorData: vector.authenticatorData, signature: vector.signature, userHandle: nil,
                expecting: AuthenticationExpectations(
                    challenge: vector.authenticationChallenge, requiresUserVerification: false, identifiedUser: Fixtures.userHandle),
                credential: foreign)
        }
    }
}
