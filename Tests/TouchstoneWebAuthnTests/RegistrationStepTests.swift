import Crypto
import Foundation
import Testing
@testable import TouchstoneWebAuthn
import TouchstoneWebAuthnTestSupport

/// Each step of WebAuthn §7.1 that can fail, driven to fail on its own (the expected code pins the step).
@Suite struct RegistrationStepTests {
    let challenge = [UInt8](repeating: 0x42, count: 32)
    let authenticator = SoftAuthenticator(seed: 1)

    func verify(
        _ registration: SoftAuthenticator.Registration, verifier: RegistrationVerifier = Fixtures.registrationVerifier(),
        expectations: RegistrationExpectations? = nil, transports: [String] = []
    ) async throws -> VerifiedRegistration {
        try await verifier.verify(
            clientDataJSON: registration.clientDataJSON, attestationObject: registration.attestationObject,
            transports: transports,
            expecting: expectations ?? RegistrationExpectations(challenge: challenge, userHandle: Fixtures.userHandle),
            now: Fixtures.now)
    }

    func clientData(_ json: String) -> [UInt8] { Array(json.utf8) }

    @Test func recordsTheCredential() async throws {
        let registration = authenticator.register(
            challenge: challenge, flags: [.userPresent, .userVerified, .backupEligible, .backupState], signCount: 7)
        let verified = try await verify(registration, transports: ["internal", "hybrid", "carrier-pigeon", "internal"])
        let credential = verified.credential
        #expect(credential.id == authenticator.credentialID)
        #expect(credential.publicKey == authenticator.coseKey)
        #expect(credential.signCount == 7)
        #expect(credential.backupEligible && credential.backupState)
        #expect(credential.uvInitialized)
        #expect(credential.aaguid == authenticator.aaguid)
        #expect(credential.attestationFormat == "none")
        #expect(credential.attestationType == .none)
        #expect(credential.transports == ["internal", "hybrid"])
        #expect(credential.userHandle == Fixtures.userHandle)
    }

    @Test func acceptsPackedSelfAttestationWithEd25519() async throws {
        let ed = SoftAuthenticator(seed: 2, algorithm: .edDSA)
        let verified = try await verify(ed.register(challenge: challenge, attestation: .packedSelf))
        #expect(verified.attestationType == .selfAttestation)
        #expect(verified.credentialPublicKey.algorithm == .edDSA)
    }

    @Test func step5And6RefuseClientDataThatIsNotUTF8JSON() async throws {
        let bad: [[UInt8]] = [
            [0xff, 0xfe] + clientData(#"{"type":"webauthn.create"}"#),
            clientData("not json"),
            clientData(#"{"type":"webauthn.create","origin":"https://example.org"}"#),  // no challenge
            clientData(#"{"type":"webauthn.create","challenge":"QkJC","origin":"https://example.org","crossOrigin":"no"}"#),
            clientData(#"["webauthn.create"]"#),
        ]
        for json in bad {
            await expectError(.malformedClientData) {
                _ = try await verify(authenticator.register(challenge: challenge, clientDataJSON: json))
            }
        }
        // A byte-order mark is stripped, and members beyond the known ones are ignored.
        let base = String(decoding: SoftAuthenticator.clientData(type: "webauthn.create", challenge: challenge, origin: "https://example.org"), as: UTF8.self)
        let extended = [0xef, 0xbb, 0xbf] + clientData(String(base.dropLast()) + #","other_keys_can_be_added_here":"do not compare clientDataJSON against a template"}"#)
        _ = try await verify(authenticator.register(challenge: challenge, clientDataJSON: extended))
    }

    @Test func step7RefusesTheWrongType() async {
        let json = SoftAuthenticator.clientData(type: "webauthn.get", challenge: challenge, origin: "https://example.org")
        await expectError(.clientDataTypeMismatch) {
            _ = try await verify(authenticator.register(challenge: challenge, clientDataJSON: json))
        }
    }

    @Test func step8RefusesAnotherChallenge() async {
        let other = SoftAuthenticator.clientData(type: "webauthn.create", challenge: challenge + [0], origin: "https://example.org")
        await expectError(.challengeMismatch) {
            _ = try await verify(authenticator.register(challenge: challenge, clientDataJSON: other))
        }
        // The same bytes in padded or standard base64 are not the base64url encoding.
        let padded = clientData(#"{"type":"webauthn.create","challenge":"QkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkI=","origin":"https://example.org"}"#)
        await expectError(.challengeMismatch) {
            _ = try await verify(authenticator.register(challenge: challenge, clientDataJSON: padded))
        }
    }

    @Test func step9RefusesOtherOrigins() async {
        for origin in ["https://evil.example", "https://example.org:8443", "http://example.org", "https://sub.example.org", "null"] {
            let json = SoftAuthenticator.clientData(type: "webauthn.create", challenge: challenge, origin: origin)
            await expectError(.originNotAllowed, "\(origin)") {
                _ = try await verify(authenticator.register(challenge: challenge, clientDataJSON: json))
            }
        }
    }

    @Test func step10RefusesCrossOriginUnlessAllowed() async throws {
        let json = SoftAuthenticator.clientData(type: "webauthn.create", challenge: challenge, origin: "https://example.org", crossOrigin: true)
        await expectError(.crossOriginNotAllowed) {
            _ = try await verify(authenticator.register(challenge: challenge, clientDataJSON: json))
        }
        let allowing = Fixtures.registrationVerifier(crossOrigin: .allowed(topOrigins: []))
        _ = try await verify(authenticator.register(challenge: challenge, clientDataJSON: json), verifier: allowing)
    }

    @Test func step11ChecksTopOrigin() async throws {
        let json = SoftAuthenticator.clientData(
            type: "webauthn.create", challenge: challenge, origin: "https://example.org", crossOrigin: true,
            topOrigin: "https://shop.example")
        let registration = authenticator.register(challenge: challenge, clientDataJSON: json)
        let sameOriginTop = SoftAuthenticator.clientData(
            type: "webauthn.create", challenge: challenge, origin: "https://example.org", crossOrigin: false,
            topOrigin: "https://shop.example")
        await expectError(.crossOriginNotAllowed) {
            _ = try await verify(authenticator.register(challenge: challenge, clientDataJSON: sameOriginTop))
        }
        await expectError(.topOriginNotAllowed) {
            _ = try await verify(registration, verifier: Fixtures.registrationVerifier(crossOrigin: .allowed(topOrigins: ["https://other.example"])))
        }
        _ = try await verify(registration, verifier: Fixtures.registrationVerifier(crossOrigin: .allowed(topOrigins: ["https://SHOP.example:443"])))
    }

    @Test func step12HashesTheExactClientDataBytes() async {
        var registration = authenticator.register(challenge: challenge, attestation: .packedSelf)
        registration.clientDataJSON.insert(0x20, at: registration.clientDataJSON.count - 1)  // still the same JSON
        await expectError(.attestationInvalid) { _ = try await verify(registration) }
    }

    @Test func step13RefusesMalformedAttestationObjects() async throws {
        let registration = authenticator.register(challenge: challenge)
        let authData = registration.authenticatorData
        let noneStatement = CBORValue.map(CBORMap([]))
        var variants: [[UInt8]] = [
            registration.attestationObject + [0x00],
            Array(registration.attestationObject.dropLast()),
            CBOREncoder.encode(CBOREncoder.map([(.text("fmt"), .text("none")), (.text("authData"), .bytes(authData))])),
            CBOREncoder.encode(CBOREncoder.map([
                (.text("fmt"), .text("none")), (.text("attStmt"), noneStatement), (.text("authData"), .text("x")),
            ])),
        ]
        // The same map with keys out of canonical order.
        variants.append([0xa3] + CBOREncoder.encode(.text("authData")) + CBOREncoder.encode(.bytes(authData))
            + CBOREncoder.encode(.text("fmt")) + CBOREncoder.encode(.text("none"))
            + CBOREncoder.encode(.text("attStmt")) + CBOREncoder.encode(noneStatement))
        for bytes in variants {
            var broken = registration
            broken.attestationObject = bytes
            await expectError(.malformedAttestationObject) { _ = try await verify(broken) }
        }
        // Members beyond the three are ignored ("at least the three keys").
        var extended = registration
        extended.attestationObject = CBOREncoder.encode(CBOREncoder.map([
            (.text("fmt"), .text("none")), (.text("attStmt"), noneStatement), (.text("authData"), .bytes(authData)),
            (.text("epAtt"), .bool(false)),
        ]))
        _ = try await verify(extended)
        // Authenticator data whose flags disagree with its contents.
        var trailing = registration
        trailing.attestationObject = SoftAuthenticator.attestationObject(format: "none", statement: noneStatement, authenticatorData: authData + [0])
        await expectError(.malformedAuthenticatorData) { _ = try await verify(trailing) }
        // No attested credential data.
        var withoutAT = registration
        withoutAT.attestationObject = SoftAuthenticator.attestationObject(
            format: "none", statement: noneStatement,
            authenticatorData: authenticator.authenticatorData(flags: [.userPresent, .userVerified], signCount: 0, attested: false))
        await expectError(.missingAttestedCredentialData) { _ = try await verify(withoutAT) }
    }

    @Test func step14RefusesAnotherRPIDHash() async {
        var other = authenticator
        other.rpID = "evil.example"
        await expectError(.rpIdHashMismatch) { _ = try await verify(other.register(challenge: challenge)) }
    }

    @Test func step15RequiresUserPresence() async {
        await expectError(.userNotPresent) {
            _ = try await verify(authenticator.register(challenge: challenge, flags: [.userVerified]))
        }
    }

    @Test func step16RequiresUserVerificationWhenAsked() async throws {
        let registration = authenticator.register(challenge: challenge, flags: [.userPresent])
        await expectError(.userNotVerified) { _ = try await verify(registration) }
        let relaxed = RegistrationExpectations(challenge: challenge, userHandle: Fixtures.userHandle, requiresUserVerification: false)
        let verified = try await verify(registration, expectations: relaxed)
        #expect(!verified.userVerified)
        #expect(!verified.credential.uvInitialized)
    }

    @Test func step17RefusesBackupStateWithoutEligibility() async {
        await expectError(.backupStateWithoutEligibility) {
            _ = try await verify(authenticator.register(challenge: challenge, flags: [.userPresent, .userVerified, .backupState]))
        }
    }

    @Test func step20RequiresAnOfferedAlgorithm() async throws {
        let ed = SoftAuthenticator(seed: 3, algorithm: .edDSA)
        let onlyES256 = RegistrationExpectations(challenge: challenge, userHandle: Fixtures.userHandle, algorithms: [.es256])
        await expectError(.algorithmNotAllowed) { _ = try await verify(ed.register(challenge: challenge), expectations: onlyES256) }
        await expectError(.algorithmNotAllowed) {
            _ = try await Fixtures.registrationVerifier().verify(
                clientDataJSON: W3CVector.section("16.8").registrationClientData,
                attestationObject: W3CVector.section("16.8").attestationObject,
                expecting: RegistrationExpectations(
                    challenge: W3CVector.section("16.8").registrationChallenge, userHandle: Fixtures.userHandle,
                    requiresUserVerification: false, algorithms: [.es256, .edDSA]),
                now: Fixtures.now)
        }
        let unsupported = RegistrationExpectations(challenge: challenge, userHandle: Fixtures.userHandle, algorithms: [.ed448])
        await expectError(.invalidConfiguration) { _ = try await verify(ed.register(challenge: challenge), expectations: unsupported) }
    }

    @Test func step21IgnoresUnsolicitedExtensionsButNotMalformedOnes() async throws {
        let extensions = CBOREncoder.map([(.text("credProtect"), .unsigned(2))])
        _ = try await verify(authenticator.register(challenge: challenge, extensions: extensions))
        await expectError(.malformedAuthenticatorData) {
            _ = try await verify(authenticator.register(challenge: challenge, extensions: CBOREncoder.map([(.unsigned(1), .unsigned(2))])))
        }
        await expectError(.malformedAuthenticatorData) {
            _ = try await verify(authenticator.register(challenge: challenge, extensions: .array([])))
        }
    }

    @Test func step22RefusesUnsupportedOrUnacceptedFormats() async throws {
        for format in ["android-safetynet", "compound", "Packed", "NONE", ""] {
            let registration = authenticator.register(
                challenge: challenge, attestation: .custom(format: format, statement: { _, _ in .map(CBORMap([])) }))
            await expectError(.unsupportedAttestationFormat, "\(format)") { _ = try await verify(registration) }
        }
        var noPacked = Fixtures.vectorPolicy
        noPacked.formats.remove(.packed)
        await expectError(.unsupportedAttestationFormat) {
            _ = try await verify(
                authenticator.register(challenge: challenge, attestation: .packedSelf),
                verifier: Fixtures.registrationVerifier(policy: noPacked))
        }
    }

    @Test func step23VerifiesTheStatement() async {
        let statements: [(String, ([UInt8], [UInt8]) -> CBORValue)] = [
            ("none", { _, _ in CBOREncoder.map([(.text("sig"), .bytes([1]))]) }),
            ("packed", { _, _ in CBOREncoder.map([(.text("alg"), CBOREncoder.int(-7)), (.text("sig"), .bytes([0x30, 0x00]))]) }),
            ("packed", { a, h in CBOREncoder.map([(.text("alg"), CBOREncoder.int(-8)), (.text("sig"), .bytes(authenticator.sign(a + h)))]) }),
            ("packed", { a, h in CBOREncoder.map([(.text("alg"), CBOREncoder.int(-7)), (.text("sig"), .bytes(authenticator.sign(h + a)))]) }),
            ("packed", { a, h in CBOREncoder.map([
                (.text("alg"), CBOREncoder.int(-7)), (.text("sig"), .bytes(authenticator.sign(a + h))), (.text("ecdaaKeyId"), .bytes([1])),
            ]) }),
            ("packed", { a, h in CBOREncoder.map([(.text("alg"), .text("ES256")), (.text("sig"), .bytes(authenticator.sign(a + h)))]) }),
            ("packed", { a, h in CBOREncoder.map([
                (.text("alg"), CBOREncoder.int(-7)), (.text("sig"), .bytes(authenticator.sign(a + h))), (.text("x5c"), .array([])),
            ]) }),
            ("packed", { a, h in CBOREncoder.map([(.text("alg"), CBOREncoder.int(-53)), (.text("sig"), .bytes(authenticator.sign(a + h)))]) }),
        ]
        for (format, statement) in statements {
            await expectError(.attestationInvalid, "\(format)") {
                _ = try await verify(authenticator.register(challenge: challenge, attestation: .custom(format: format, statement: statement)))
            }
        }
    }

    @Test func step25AppliesTheAttestationPolicy() async throws {
        let strict = Fixtures.registrationVerifier(policy: try .required(trustAnchorsDER: [W3CVector.rootCertificate]))
        var withNone = try AttestationPolicy.required(trustAnchorsDER: [W3CVector.rootCertificate])
        withNone.formats.insert(.none)
        await expectError(.attestationNotTrusted) {
            _ = try await verify(authenticator.register(challenge: challenge), verifier: Fixtures.registrationVerifier(policy: withNone))
        }
        await expectError(.attestationNotTrusted) {
            _ = try await verify(authenticator.register(challenge: challenge, attestation: .packedSelf), verifier: strict)
        }
        // The passkey preset takes none and self attestation.
        _ = try await verify(authenticator.register(challenge: challenge), verifier: Fixtures.registrationVerifier(policy: .notRequired))
        _ = try await verify(
            authenticator.register(challenge: challenge, attestation: .packedSelf),
            verifier: Fixtures.registrationVerifier(policy: .notRequired))
    }

    @Test func step26RefusesCredentialIDsLongerThan1023Bytes() async throws {
        let long = SoftAuthenticator(seed: 4, credentialIDLength: 1024)
        await expectError(.credentialIdTooLong) { _ = try await verify(long.register(challenge: challenge)) }
        let longest = SoftAuthenticator(seed: 4, credentialIDLength: 1023)
        #expect(try await verify(longest.register(challenge: challenge)).credential.id.count == 1023)
    }

    @Test func refusesUserHandlesOutsideOneTo64Bytes() async {
        for handle in [[UInt8](), [UInt8](repeating: 1, count: 65)] {
            await expectError(.invalidUser) {
                _ = try await verify(authenticator.register(challenge: challenge), expectations: RegistrationExpectations(challenge: challenge, userHandle: handle))
            }
        }
    }

    @Test func step27RefusesExcludedCredentials() async {
        let expectations = RegistrationExpectations(
            challenge: challenge, userHandle: Fixtures.userHandle, excludedCredentialIDs: [[1, 2, 3], authenticator.credentialID])
        await expectError(.credentialExcluded) {
            _ = try await verify(authenticator.register(challenge: challenge), expectations: expectations)
        }
    }
}
