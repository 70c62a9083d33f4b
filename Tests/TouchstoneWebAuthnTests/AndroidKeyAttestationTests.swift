import Crypto
import Foundation
import Testing
import X509
@testable import TouchstoneWebAuthn
import TouchstoneWebAuthnTestSupport

/// `android-key` (§8.4), each check broken on its own.
@Suite struct AndroidKeyAttestationTests {
    let pki = TestPKI(seed: 400)
    let authenticator = SoftAuthenticator(seed: 401)
    static let tee = DERBuilder.authorizationList(purposes: [2], origin: 0)
    static let empty = DERBuilder.authorizationList()

    func statement(
        software: [UInt8] = empty, tee: [UInt8] = tee, challenge: (([UInt8]) -> [UInt8])? = nil,
        certificateKey: Certificate.PublicKey? = nil, signer: SoftAuthenticator? = nil, withExtension: Bool = true,
        rawExtension: [UInt8]? = nil, trailing: [UInt8] = []
    ) -> ([UInt8], [UInt8]) -> CBORValue {
        let pki = pki
        let authenticator = authenticator
        return { authData, hash in
            let description = rawExtension
                ?? DERBuilder.keyDescription(challenge: challenge?(hash) ?? hash, software: software, tee: tee, trailing: trailing)
            let ext = Certificate.Extension(oid: [1, 3, 6, 1, 4, 1, 11129, 2, 1, 17], critical: false, value: ArraySlice(description))
            let key = certificateKey ?? .init(authenticator.p256PublicKey ?? P256.Signing.PrivateKey().publicKey)
            let leaf = try? pki.issue(publicKey: key, subject: TestPKI.packedSubject(), extensions: withExtension ? [ext] : [])
            return CBOREncoder.map([
                (.text("alg"), CBOREncoder.int(-7)), (.text("sig"), .bytes((signer ?? authenticator).sign(authData + hash))),
                (.text("x5c"), .array([.bytes(leaf.map(TestPKI.der) ?? []), .bytes(TestPKI.der(pki.root))])),
            ])
        }
    }

    func register(_ statement: @escaping ([UInt8], [UInt8]) -> CBORValue, policy: AttestationPolicy? = nil) async throws -> VerifiedRegistration {
        try await pki.register(authenticator, format: "android-key", policy: policy, statement: statement)
    }

    @Test func acceptsAKeyGeneratedForSigningInTheTEE() async throws {
        #expect(try await register(statement()).attestationType == .basic)
        // Fields appended to KeyDescription by later versions are tolerated.
        _ = try await register(statement(trailing: DERBuilder.integer(7)))
    }

    @Test func requiresTheClientDataHashAsChallenge() async {
        await expectError(.attestationInvalid) { _ = try await register(statement(challenge: { AttestationObjectEditor.flip($0, at: 0) })) }
    }

    @Test func refusesKeysForAllApplications() async {
        await expectError(.attestationInvalid) {
            _ = try await register(statement(software: DERBuilder.authorizationList(allApplications: true)))
        }
        await expectError(.attestationInvalid) {
            _ = try await register(statement(tee: DERBuilder.authorizationList(purposes: [2], origin: 0, allApplications: true)))
        }
    }

    @Test func requiresOriginGeneratedAndPurposeSign() async {
        for tee in [
            DERBuilder.authorizationList(purposes: [2], origin: 2),  // imported
            DERBuilder.authorizationList(purposes: [2, 3], origin: 0),  // also decrypt
            DERBuilder.authorizationList(purposes: [3], origin: 0),
            DERBuilder.authorizationList(purposes: [2]),
            DERBuilder.authorizationList(origin: 0),
        ] {
            await expectError(.attestationInvalid) { _ = try await register(statement(tee: tee)) }
        }
    }

    @Test func readsOnlyTheTEEListUnlessSoftwareKeysAreAccepted() async throws {
        let softwareOnly = statement(software: Self.tee, tee: Self.empty)
        await expectError(.attestationInvalid) { _ = try await register(softwareOnly) }
        var lenient = pki.policy
        lenient.insecureAcceptsSoftwareEnforcedAndroidKeys = true
        _ = try await register(softwareOnly, policy: lenient)
        // The union must still agree: a software list saying "imported" spoils it.
        await expectError(.attestationInvalid) {
            _ = try await register(statement(software: DERBuilder.authorizationList(origin: 2)), policy: lenient)
        }
    }

    @Test func requiresTheCredentialKeyAndItsSignature() async {
        await expectError(.attestationInvalid) {
            _ = try await register(statement(certificateKey: .init(P256.Signing.PrivateKey().publicKey)))
        }
        await expectError(.attestationInvalid) { _ = try await register(statement(signer: SoftAuthenticator(seed: 402))) }
    }

    @Test func requiresAWellFormedExtension() async {
        await expectError(.attestationInvalid) { _ = try await register(statement(withExtension: false)) }
        await expectError(.attestationInvalid) { _ = try await register(statement(rawExtension: [0x30, 0x03, 0x02, 0x01, 0x01])) }
        await expectError(.attestationInvalid) {
            _ = try await register(statement(tee: DERBuilder.tlv([0x30], DERBuilder.tlv([0xbf, 0x85, 0x3e], DERBuilder.integer(0)) + DERBuilder.tlv([0xbf, 0x85, 0x3e], DERBuilder.integer(0)))))
        }
    }
}
