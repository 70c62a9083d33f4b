import Crypto
import Foundation
import SwiftASN1
import Testing
import X509
@testable import TouchstoneWebAuthn
import TouchstoneWebAuthnTestSupport

/// `tpm` (§8.3) and the AIK certificate requirements of §8.3.1, each broken on its own.
@Suite struct TPMAttestationTests {
    let pki = TestPKI(seed: 500)
    let authenticator = SoftAuthenticator(seed: 501)
    let aikKey = P256.Signing.PrivateKey()

    static func be16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xff), UInt8(v & 0xff)] }

    static func eccPublicArea(x: [UInt8], y: [UInt8], curve: Int = 3, nameAlg: Int = 0x000b, symmetric: Int = 0x0010) -> [UInt8] {
        be16(0x0023) + be16(nameAlg) + [0x00, 0x04, 0x00, 0x72] + be16(0) + be16(symmetric) + be16(0x0010) + be16(curve)
            + be16(0x0010) + be16(x.count) + x + be16(y.count) + y
    }

    static func rsaPublicArea(n: [UInt8], exponent: UInt32) -> [UInt8] {
        be16(0x0001) + be16(0x000b) + [0x00, 0x04, 0x00, 0x72] + be16(0) + be16(0x0010) + be16(0x0014) + be16(0x000b)
            + be16(n.count * 8) + [UInt8(exponent >> 24), UInt8(exponent >> 16 & 0xff), UInt8(exponent >> 8 & 0xff), UInt8(exponent & 0xff)]
            + be16(n.count) + n
    }

    static func name(of publicArea: [UInt8]) -> [UInt8] { be16(0x000b) + Array(SHA256.hash(data: publicArea)) }

    static func certInfo(extraData: [UInt8], name: [UInt8], magic: UInt32 = 0xff54_4347, type: Int = 0x8017) -> [UInt8] {
        [UInt8(magic >> 24), UInt8(magic >> 16 & 0xff), UInt8(magic >> 8 & 0xff), UInt8(magic & 0xff)] + be16(type)
            + be16(0) + be16(extraData.count) + extraData + [UInt8](repeating: 0, count: 8) + [0, 0, 0, 1] + [0, 0, 0, 2] + [1]
            + [UInt8](repeating: 0, count: 8) + be16(name.count) + name + be16(0)
    }

    static func tpmAttributes(manufacturer: Bool = true, model: Bool = true, version: Bool = true) -> DistinguishedName {
        var attributes: [RelativeDistinguishedName.Attribute] = []
        if manufacturer { attributes.append(.init(type: [2, 23, 133, 2, 1], utf8String: "id:FFFFF1D0")) }
        if model { attributes.append(.init(type: [2, 23, 133, 2, 2], utf8String: "Touchstone test TPM")) }
        if version { attributes.append(.init(type: [2, 23, 133, 2, 3], utf8String: "id:00020000")) }
        return DistinguishedName([RelativeDistinguishedName(attributes)])
    }

    func aikCertificate(
        subject: DistinguishedName = DistinguishedName(), san: DistinguishedName? = tpmAttributes(), sanCritical: Bool = true,
        usage: ASN1ObjectIdentifier? = [2, 23, 133, 8, 3], ca: Bool = false, aaguid: [UInt8]? = nil
    ) throws -> Certificate {
        var extensions: [Certificate.Extension] = [
            ca ? try Certificate.Extension(BasicConstraints.isCertificateAuthority(maxPathLength: 0), critical: true) : try TestPKI.notCA(),
        ]
        if let san { extensions.append(try Certificate.Extension(SubjectAlternativeNames([.directoryName(san)]), critical: sanCritical)) }
        if let usage { extensions.append(try Certificate.Extension(ExtendedKeyUsage([.init(oid: usage)]), critical: false)) }
        if let aaguid { extensions.append(TestPKI.aaguidExtension(aaguid)) }
        return try pki.issue(publicKey: .init(aikKey.publicKey), subject: subject, extensions: extensions)
    }

    struct Tamper {
        var version = "2.0"
        var publicArea: (([UInt8]) -> [UInt8])? = nil
        var certInfo: (([UInt8], [UInt8]) -> [UInt8])? = nil  // (attToBeSigned, name) -> certInfo
        var signer: P256.Signing.PrivateKey? = nil
        var certificate: Certificate? = nil
        var withoutX5C = false
    }

    func statement(_ tamper: Tamper = Tamper(), publicArea fixedArea: [UInt8]? = nil) throws -> ([UInt8], [UInt8]) -> CBORValue {
        let point = Array(authenticator.p256PublicKey?.x963Representation ?? Data())
        let baseArea = fixedArea ?? Self.eccPublicArea(x: Array(point[1..<33]), y: Array(point[33..<65]))
        let area = tamper.publicArea?(baseArea) ?? baseArea
        let certificate = try tamper.certificate ?? aikCertificate()
        let signer = tamper.signer ?? aikKey
        return { authData, hash in
            let extraData = Array(SHA256.hash(data: authData + hash))
            let info = tamper.certInfo?(authData + hash, Self.name(of: area)) ?? Self.certInfo(extraData: extraData, name: Self.name(of: area))
            var entries: [(CBORValue, CBORValue)] = [
                (.text("ver"), .text(tamper.version)), (.text("alg"), CBOREncoder.int(-7)),
                (.text("sig"), .bytes(Array((try? signer.signature(for: info).derRepresentation) ?? Data()))),
                (.text("certInfo"), .bytes(info)), (.text("pubArea"), .bytes(area)),
            ]
            if !tamper.withoutX5C { entries.append((.text("x5c"), .array([.bytes(TestPKI.der(certificate))]))) }
            return CBOREncoder.map(entries)
        }
    }

    func register(_ statement: @escaping ([UInt8], [UInt8]) -> CBORValue, authenticator: SoftAuthenticator? = nil) async throws -> VerifiedRegistration {
        try await pki.register(authenticator ?? self.authenticator, format: "tpm", statement: statement)
    }

    func expectInvalid(_ tamper: Tamper, _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let statement = try statement(tamper)
        await expectError(.attestationInvalid, comment, sourceLocation: sourceLocation) { _ = try await register(statement) }
    }

    @Test func acceptsATPMAttestation() async throws {
        #expect(try await register(statement()).attestationType == .attestationCA)
        _ = try await register(statement(Tamper(certificate: try aikCertificate(aaguid: authenticator.aaguid))))
    }

    @Test func acceptsAnRSACredentialKey() async throws {
        // The §16.10 credential key (RSA, e = 65537) in this authenticator's data; the TPM's pubArea describes it.
        guard let rsaKey = try AttestationObject(bytes: W3CVector.section("16.10").attestationObject)
            .authenticatorData.attestedCredentialData?.credentialPublicKey(),
            case .rsa(let n, _) = rsaKey.parameters
        else { Issue.record("no RSA key"); return }
        var rsaAuthenticator = authenticator
        rsaAuthenticator.coseKeyOverride = rsaKey.bytes
        for exponent: UInt32 in [0, 65537] {
            _ = try await register(try statement(publicArea: Self.rsaPublicArea(n: n, exponent: exponent)), authenticator: rsaAuthenticator)
        }
        await expectError(.attestationInvalid) {
            _ = try await register(try statement(publicArea: Self.rsaPublicArea(n: n, exponent: 3)), authenticator: rsaAuthenticator)
        }
        await expectError(.attestationInvalid) {
            _ = try await register(try statement(publicArea: Self.rsaPublicArea(n: AttestationObjectEditor.flip(n, at: 9), exponent: 0)), authenticator: rsaAuthenticator)
        }
    }

    @Test func requiresVersion2AndX5C() async throws {
        try await expectInvalid(Tamper(version: "1.2"))
        try await expectInvalid(Tamper(withoutX5C: true))
    }

    @Test func requiresPubAreaToDescribeTheCredentialKey() async throws {
        try await expectInvalid(Tamper(publicArea: { AttestationObjectEditor.flip($0, at: -1) }), "other y")
        try await expectInvalid(Tamper(publicArea: { var a = $0; a[15] = 0x04; return a }), "other curve")
        try await expectInvalid(Tamper(publicArea: { $0 + [0] }), "trailing byte")
        try await expectInvalid(Tamper(publicArea: { Array($0.dropLast()) }), "truncated")
        try await expectInvalid(Tamper(publicArea: { var a = $0; a[11] = 0x06; return a }), "symmetric algorithm")
    }

    @Test func checksCertInfo() async throws {
        try await expectInvalid(Tamper(certInfo: { data, name in Self.certInfo(extraData: Array(SHA256.hash(data: data)), name: name, magic: 0xff54_4348) }), "magic")
        try await expectInvalid(Tamper(certInfo: { data, name in Self.certInfo(extraData: Array(SHA256.hash(data: data)), name: name, type: 0x8018) }), "type")
        try await expectInvalid(Tamper(certInfo: { data, name in Self.certInfo(extraData: Array(SHA256.hash(data: data + [0])), name: name) }), "extraData")
        try await expectInvalid(Tamper(certInfo: { data, name in Self.certInfo(extraData: Array(SHA384.hash(data: data)), name: name) }), "extraData hash")
        try await expectInvalid(Tamper(certInfo: { data, name in Self.certInfo(extraData: Array(SHA256.hash(data: data)), name: AttestationObjectEditor.flip(name, at: -1)) }), "name")
        try await expectInvalid(Tamper(certInfo: { data, name in Self.certInfo(extraData: Array(SHA256.hash(data: data)), name: name) + [0] }), "trailing byte")
        // A Name computed with SHA-1 is not accepted.
        let point = Array(authenticator.p256PublicKey?.x963Representation ?? Data())
        let sha1Area = Self.eccPublicArea(x: Array(point[1..<33]), y: Array(point[33..<65]), nameAlg: 0x0004)
        let sha1Statement = try statement(Tamper(certInfo: { data, _ in
            Self.certInfo(extraData: Array(SHA256.hash(data: data)), name: Self.be16(0x0004) + Array(Insecure.SHA1.hash(data: sha1Area)))
        }), publicArea: sha1Area)
        await expectError(.attestationInvalid) { _ = try await register(sha1Statement) }
    }

    @Test func verifiesTheSignatureWithTheAIK() async throws {
        try await expectInvalid(Tamper(signer: P256.Signing.PrivateKey()))
    }

    @Test func requiresTheAIKCertificateOfSection831() async throws {
        let bad: [(String, Certificate)] = [
            ("subject", try aikCertificate(subject: try DistinguishedName { CommonName("not empty") })),
            ("no SAN", try aikCertificate(san: nil)),
            ("SAN not critical", try aikCertificate(sanCritical: false)),
            ("no model", try aikCertificate(san: Self.tpmAttributes(model: false))),
            ("no manufacturer", try aikCertificate(san: Self.tpmAttributes(manufacturer: false))),
            ("no version", try aikCertificate(san: Self.tpmAttributes(version: false))),
            ("no EKU", try aikCertificate(usage: nil)),
            ("other EKU", try aikCertificate(usage: [1, 3, 6, 1, 5, 5, 7, 3, 2])),
            ("CA", try aikCertificate(ca: true)),
            ("AAGUID", try aikCertificate(aaguid: [UInt8](repeating: 7, count: 16))),
        ]
        for (what, certificate) in bad {
            try await expectInvalid(Tamper(certificate: certificate), "\(what)")
        }
    }

    @Test func requiresAChainToTheAnchor() async throws {
        let statement = try statement()
        await expectError(.attestationNotTrusted) {
            _ = try await pki.register(authenticator, format: "tpm", policy: .required(trustAnchors: [TestPKI(seed: 502).root]), statement: statement)
        }
    }
}
