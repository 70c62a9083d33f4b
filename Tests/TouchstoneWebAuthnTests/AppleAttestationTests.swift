import Crypto
import Foundation
import SwiftASN1
import Testing
import X509
@testable import TouchstoneWebAuthn
import TouchstoneWebAuthnTestSupport

/// `apple` anonymous attestation (§8.8), each check broken on its own.
@Suite struct AppleAttestationTests {
    let pki = TestPKI(seed: 300)
    let authenticator = SoftAuthenticator(seed: 301)

    static func nonceExtension(_ nonce: [UInt8]) -> Certificate.Extension {
        // SEQUENCE { [1] EXPLICIT OCTET STRING nonce }
        let octets: [UInt8] = [0x04, UInt8(nonce.count)] + nonce
        let tagged: [UInt8] = [0xa1, UInt8(octets.count)] + octets
        return Certificate.Extension(oid: [1, 2, 840, 113635, 100, 8, 2], critical: false, value: ArraySlice([0x30, UInt8(tagged.count)] + tagged))
    }

    func statement(
        key: Certificate.PublicKey? = nil, nonce: (([UInt8]) -> [UInt8])? = nil, extensionOverride: Certificate.Extension?? = nil
    ) -> ([UInt8], [UInt8]) -> CBORValue {
        let pki = pki
        let publicKey = key ?? .init(authenticator.p256PublicKey ?? P256.Signing.PrivateKey().publicKey)
        return { authData, hash in
            let digest = Array(SHA256.hash(data: authData + hash))
            let ext: Certificate.Extension? = extensionOverride ?? Self.nonceExtension(nonce?(digest) ?? digest)
            let leaf = try? pki.issue(publicKey: publicKey, subject: TestPKI.packedSubject(), extensions: ext.map { [$0] } ?? [])
            return CBOREncoder.map([(.text("x5c"), .array([.bytes(leaf.map(TestPKI.der) ?? [])]))])
        }
    }

    func register(_ statement: @escaping ([UInt8], [UInt8]) -> CBORValue) async throws -> VerifiedRegistration {
        try await pki.register(authenticator, format: "apple", statement: statement)
    }

    @Test func acceptsAnAppleAttestation() async throws {
        #expect(try await register(statement()).attestationType == .anonymizationCA)
    }

    @Test func requiresTheNonceOfAuthenticatorDataAndClientDataHash() async throws {
        await expectError(.attestationInvalid) { _ = try await register(statement(nonce: { AttestationObjectEditor.flip($0, at: 0) })) }
        await expectError(.attestationInvalid) { _ = try await register(statement(extensionOverride: .some(nil))) }
        let malformed = Certificate.Extension(oid: [1, 2, 840, 113635, 100, 8, 2], critical: false, value: [0x04, 0x00])
        await expectError(.attestationInvalid) { _ = try await register(statement(extensionOverride: malformed)) }
    }

    @Test func requiresTheCredentialKeyInTheCertificate() async throws {
        await expectError(.attestationInvalid) { _ = try await register(statement(key: .init(P256.Signing.PrivateKey().publicKey))) }
    }

    @Test func refusesOtherMembersAndUntrustedChains() async throws {
        let base = statement()
        await expectError(.attestationInvalid) {
            _ = try await register({ a, h in
                guard let map = base(a, h).map else { return .null }
                return .map(CBORMap(map.entries + [CBORMap.Entry(key: .text("alg"), value: CBOREncoder.int(-7))]))
            })
        }
        await expectError(.attestationNotTrusted) {
            _ = try await pki.register(authenticator, format: "apple", policy: .required(trustAnchors: [TestPKI(seed: 302).root]), statement: base)
        }
    }
}
