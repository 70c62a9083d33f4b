import Crypto
import Foundation
import Testing
import X509
@testable import TouchstoneWebAuthn
import TouchstoneWebAuthnTestSupport

/// `fido-u2f` (§8.6), each check broken on its own.
@Suite struct FIDOU2FAttestationTests {
    let pki = TestPKI(seed: 200)
    let authenticator = SoftAuthenticator(seed: 201)
    let attestationKey = P256.Signing.PrivateKey()

    func statement(
        chain: [Certificate], key: P256.Signing.PrivateKey? = nil, credential: SoftAuthenticator? = nil,
        extra: [(CBORValue, CBORValue)] = []
    ) -> ([UInt8], [UInt8]) -> CBORValue {
        let signer = key ?? attestationKey
        let source = credential ?? authenticator
        return { authData, hash in
            let point = Array(source.p256PublicKey?.x963Representation ?? Data())
            let verificationData = [0x00] + Array(authData[0..<32]) + hash + source.credentialID + point
            let sig = Array((try? signer.signature(for: verificationData).derRepresentation) ?? Data())
            return CBOREncoder.map([(.text("sig"), .bytes(sig)), (.text("x5c"), .array(chain.map { .bytes(TestPKI.der($0)) }))] + extra)
        }
    }

    func certificate(key: Certificate.PublicKey? = nil) throws -> Certificate {
        try pki.issue(publicKey: key ?? .init(attestationKey.publicKey), subject: TestPKI.packedSubject(), extensions: [])
    }

    func register(_ statement: @escaping ([UInt8], [UInt8]) -> CBORValue, authenticator: SoftAuthenticator? = nil) async throws -> VerifiedRegistration {
        try await pki.register(authenticator ?? self.authenticator, format: "fido-u2f", statement: statement)
    }

    @Test func acceptsAU2FRegistration() async throws {
        let verified = try await register(statement(chain: [try certificate()]))
        #expect(verified.attestationType == .basicOrAttestationCA)
        #expect(verified.credential.attestationFormat == "fido-u2f")
    }

    @Test func requiresExactlyOneP256Certificate() async throws {
        let leaf = try certificate()
        await expectError(.attestationInvalid) { _ = try await register(statement(chain: [leaf, pki.root])) }
        await expectError(.attestationInvalid) { _ = try await register(statement(chain: [])) }
        let p384 = try certificate(key: .init(P384.Signing.PrivateKey().publicKey))
        await expectError(.attestationInvalid) { _ = try await register(statement(chain: [p384])) }
    }

    @Test func requiresAnES256CredentialKey() async throws {
        let ed = SoftAuthenticator(seed: 202, algorithm: .edDSA)
        await expectError(.attestationInvalid) { _ = try await register(statement(chain: [try certificate()], credential: ed), authenticator: ed) }
    }

    @Test func verifiesTheSignatureOverTheU2FRegistrationData() async throws {
        let leaf = try certificate()
        await expectError(.attestationInvalid) { _ = try await register(statement(chain: [leaf], key: P256.Signing.PrivateKey())) }
        // Signed for another credential ID.
        var other = authenticator
        other.credentialID = [1, 2, 3]
        await expectError(.attestationInvalid) { _ = try await register(statement(chain: [leaf], credential: other)) }
    }

    @Test func refusesOtherMembers() async throws {
        await expectError(.attestationInvalid) {
            _ = try await register(statement(chain: [try certificate()], extra: [(.text("alg"), CBOREncoder.int(-7))]))
        }
    }

    @Test func requiresAChainToTheAnchor() async throws {
        let stranger = TestPKI(seed: 203)
        let leaf = try stranger.issue(publicKey: .init(attestationKey.publicKey), subject: TestPKI.packedSubject(), extensions: [])
        await expectError(.attestationNotTrusted) { _ = try await register(statement(chain: [leaf])) }
    }
}
