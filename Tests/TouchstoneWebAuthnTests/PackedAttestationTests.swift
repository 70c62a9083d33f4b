import Crypto
import Foundation
import SwiftASN1
import Testing
import X509
@testable import TouchstoneWebAuthn
import TouchstoneWebAuthnTestSupport

/// `packed` with an x5c chain (§8.2) and the certificate requirements of §8.2.1, each broken on its own.
@Suite struct PackedAttestationTests {
    let pki = TestPKI(seed: 100)
    let authenticator = SoftAuthenticator(seed: 101)
    let attestationKey = P256.Signing.PrivateKey()

    func certificate(
        subject: DistinguishedName? = nil, extensions: [Certificate.Extension]? = nil,
        version: Certificate.Version = .v3, key: Certificate.PublicKey? = nil
    ) throws -> Certificate {
        try pki.issue(
            publicKey: key ?? .init(attestationKey.publicKey), subject: subject ?? TestPKI.packedSubject(),
            extensions: extensions ?? [TestPKI.notCA(), TestPKI.aaguidExtension(authenticator.aaguid)], version: version)
    }

    func statement(_ chain: [Certificate], alg: Int = -7, sign: (([UInt8]) -> [UInt8])? = nil) -> ([UInt8], [UInt8]) -> CBORValue {
        let key = attestationKey
        return { authData, hash in
            let signature = sign?(authData + hash) ?? Array((try? key.signature(for: authData + hash).derRepresentation) ?? Data())
            return CBOREncoder.map([
                (.text("alg"), CBOREncoder.int(alg)), (.text("sig"), .bytes(signature)),
                (.text("x5c"), .array(chain.map { .bytes(TestPKI.der($0)) })),
            ])
        }
    }

    func register(_ statement: @escaping ([UInt8], [UInt8]) -> CBORValue, policy: AttestationPolicy? = nil, now: Date = TestPKI.now) async throws -> VerifiedRegistration {
        try await pki.register(authenticator, format: "packed", policy: policy, now: now, statement: statement)
    }

    @Test func acceptsACompliantChain() async throws {
        let leaf = try certificate()
        let verified = try await register(statement([leaf]))
        #expect(verified.attestationType == .basicOrAttestationCA)
        #expect(verified.trustPath == [leaf])
        // Without the optional AAGUID extension too.
        _ = try await register(statement([try certificate(extensions: [TestPKI.notCA()])]))
    }

    @Test func acceptsOtherAttestationAlgorithms() async throws {
        let p384 = P384.Signing.PrivateKey()
        let leaf = try certificate(key: .init(p384.publicKey))
        _ = try await register(statement([leaf], alg: -35, sign: { Array((try? p384.signature(for: $0).derRepresentation) ?? Data()) }))
        // The attestation key must fit alg.
        await expectError(.attestationInvalid) {
            _ = try await register(statement([leaf], alg: -7, sign: { Array((try? p384.signature(for: $0).derRepresentation) ?? Data()) }))
        }
    }

    @Test func verifiesTheSignatureWithTheAttestationCertificate() async throws {
        let leaf = try certificate()
        let other = P256.Signing.PrivateKey()
        await expectError(.attestationInvalid) {
            _ = try await register(statement([leaf], sign: { Array((try? other.signature(for: $0).derRepresentation) ?? Data()) }))
        }
        // A raw r‖s signature is not the DER that WebAuthn requires.
        let key = attestationKey
        await expectError(.attestationInvalid) {
            _ = try await register(statement([leaf], sign: { Array((try? key.signature(for: $0).rawRepresentation) ?? Data()) }))
        }
    }

    @Test func requiresTheSubjectOfSection821() async throws {
        let subjects: [DistinguishedName] = [
            try TestPKI.packedSubject(unit: "Authenticator"),
            try TestPKI.packedSubject(commonName: nil),
            try TestPKI.packedSubject(country: "AAA"),
            try TestPKI.packedSubject(country: "aa"),
            try TestPKI.packedSubject(organization: ""),
            DistinguishedName([
                RelativeDistinguishedName(try .init(type: .RDNAttributeType.countryName, printableString: "AA")),
                RelativeDistinguishedName(try .init(type: .RDNAttributeType.organizationName, printableString: "Touchstone tests")),
                RelativeDistinguishedName(.init(type: .RDNAttributeType.organizationalUnitName, utf8String: "Authenticator Attestation")),
                RelativeDistinguishedName(.init(type: .RDNAttributeType.commonName, utf8String: "Test")),
            ]),
            try DistinguishedName { CommonName("Only a common name") },
        ]
        for subject in subjects {
            let leaf = try certificate(subject: subject)
            await expectError(.attestationInvalid, "\(subject)") { _ = try await register(statement([leaf])) }
        }
    }

    @Test func requiresVersion3AndBasicConstraintsWithoutCA() async throws {
        let variants: [Certificate] = [
            try certificate(extensions: [TestPKI.aaguidExtension(authenticator.aaguid)]),
            try certificate(extensions: [
                try Certificate.Extension(BasicConstraints.isCertificateAuthority(maxPathLength: 0), critical: true),
            ]),
            try certificate(extensions: [], version: .v1),
        ]
        for leaf in variants {
            await expectError(.attestationInvalid) { _ = try await register(statement([leaf])) }
        }
    }

    @Test func checksTheAAGUIDExtension() async throws {
        let wrong = try certificate(extensions: [TestPKI.notCA(), TestPKI.aaguidExtension([UInt8](repeating: 1, count: 16))])
        await expectError(.attestationInvalid) { _ = try await register(statement([wrong])) }
        let critical = try certificate(extensions: [TestPKI.notCA(), TestPKI.aaguidExtension(authenticator.aaguid, critical: true)])
        await expectError(.attestationInvalid) { _ = try await register(statement([critical])) }
        let malformed = try certificate(extensions: [
            TestPKI.notCA(),
            Certificate.Extension(oid: [1, 3, 6, 1, 4, 1, 45724, 1, 1, 4], critical: false, value: ArraySlice(authenticator.aaguid)),
        ])
        await expectError(.attestationInvalid) { _ = try await register(statement([malformed])) }
    }

    @Test func chainsThroughIntermediatesToTheTrustAnchor() async throws {
        let intermediateKey = P256.Signing.PrivateKey()
        let intermediateName = try DistinguishedName { CommonName("Test intermediate") }
        let intermediate = try pki.issue(
            publicKey: .init(intermediateKey.publicKey), subject: intermediateName,
            extensions: [try Certificate.Extension(BasicConstraints.isCertificateAuthority(maxPathLength: 0), critical: true)])
        let leaf = try pki.issue(
            publicKey: .init(attestationKey.publicKey), subject: TestPKI.packedSubject(),
            extensions: [TestPKI.notCA()], issuer: (intermediateName, intermediateKey))
        _ = try await register(statement([leaf, intermediate]))
        await expectError(.attestationNotTrusted, "intermediate missing") { _ = try await register(statement([leaf])) }
        // An intermediate that is not a CA cannot issue.
        let notCA = try pki.issue(publicKey: .init(intermediateKey.publicKey), subject: intermediateName, extensions: [TestPKI.notCA()])
        await expectError(.attestationNotTrusted, "issuer is not a CA") { _ = try await register(statement([leaf, notCA])) }
    }

    @Test func trustsALeafThatIsItselfAnAnchorButNotOtherRoots() async throws {
        let leaf = try certificate()
        _ = try await register(statement([leaf]), policy: .required(trustAnchors: [leaf]))
        await expectError(.attestationNotTrusted) {
            _ = try await register(statement([leaf]), policy: .required(trustAnchors: [TestPKI(seed: 999).root]))
        }
    }

    @Test func checksValidityAtTheGivenTime() async throws {
        let leaf = try certificate()
        await expectError(.attestationNotTrusted) { _ = try await register(statement([leaf]), now: Date(timeIntervalSince1970: 1_600_000_000)) }
        await expectError(.attestationNotTrusted) { _ = try await register(statement([leaf]), now: Date(timeIntervalSince1970: 2_000_000_000)) }
    }

    @Test func refusesMoreThanEightCertificatesAndNonCertificates() async throws {
        let leaf = try certificate()
        await expectError(.attestationInvalid) { _ = try await register(statement(Array(repeating: leaf, count: 9))) }
        let key = attestationKey
        await expectError(.attestationInvalid) {
            _ = try await register({ authData, hash in
                CBOREncoder.map([
                    (.text("alg"), CBOREncoder.int(-7)),
                    (.text("sig"), .bytes(Array((try? key.signature(for: authData + hash).derRepresentation) ?? Data()))),
                    (.text("x5c"), .array([.bytes([0x30, 0x00])])),
                ])
            })
        }
    }
}
