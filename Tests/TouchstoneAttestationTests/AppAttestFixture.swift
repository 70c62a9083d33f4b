import Crypto
import Foundation
import SwiftASN1
import TouchstoneWebAuthn
import TouchstoneWebAuthnTestSupport
import X509

/// An App Attest attestation built here, under a test root, so that each field can be set on its own and the nonce
/// still covers it: what Apple's samples cannot show, since changing a byte of theirs breaks the nonce first.
struct AppAttestFixture {
    static let appID = "ABCDE12345.com.example.touchstone"
    static let time = Date(timeIntervalSince1970: 1_800_000_000)

    let rootKey = P384.Signing.PrivateKey()
    var leafKey = Certificate.PrivateKey(P256.Signing.PrivateKey())
    var rpID = appID
    var flags: UInt8 = 0x40
    var counter: UInt32 = 0
    var aaguid = Array("appattest".utf8) + Array(repeating: 0, count: 7)
    /// The credential ID; nil for keyId.
    var credentialID: [UInt8]?
    /// Bytes after the credential key (iOS 27's extension map, for example).
    var trailing: [UInt8] = []
    /// The extensions of an intermediate between the root and the leaf; no intermediate when nil.
    var intermediate: Certificate.Extensions?
    let intermediateKey = P256.Signing.PrivateKey()
    let clientDataHash = Array(SHA256.hash(data: Array("touchstone-appattest-v1\nchallenge\nkid\n".utf8)))

    /// The root certificate's PEM, to trust insecurely.
    func rootPEM() throws -> String {
        try root().serializeAsPEM().pemString
    }

    /// The leaf key's identifier: SHA-256 of its uncompressed point.
    var keyID: [UInt8] {
        Array(SHA256.hash(data: Self.point(leafKey.publicKey)))
    }

    func authenticatorData() -> [UInt8] {
        let point = Self.point(leafKey.publicKey)
        let coseKey = CBOREncoder.encode(.map(CBORMap([
            CBORMap.Entry(key: .unsigned(1), value: .unsigned(2)),
            CBORMap.Entry(key: .unsigned(3), value: .negative(6)),
            CBORMap.Entry(key: .negative(0), value: .unsigned(1)),
            CBORMap.Entry(key: .negative(1), value: .bytes(Array(point[1..<33]))),
            CBORMap.Entry(key: .negative(2), value: .bytes(Array(point[33...]))),
        ])))
        let credential = credentialID ?? keyID
        return Array(SHA256.hash(data: Array(rpID.utf8))) + [flags] + CBOREncoder.bigEndian(UInt64(counter), 4) + aaguid
            + CBOREncoder.bigEndian(UInt64(credential.count), 2) + credential + coseKey + trailing
    }

    /// The CBOR attestation object.
    func attestationObject() throws -> [UInt8] {
        let authData = authenticatorData()
        let nonce = Array(SHA256.hash(data: authData + clientDataHash))
        let nonceExtension = [0x30, 0x24, 0xa1, 0x22, 0x04, 0x20] + nonce
        let intermediateName = try DistinguishedName { CommonName("Touchstone Test Intermediate") }
        let leaf = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: leafKey.publicKey,
            notValidBefore: Self.time - 86_400, notValidAfter: Self.time + 86_400,
            issuer: intermediate == nil ? try Self.rootName() : intermediateName,
            subject: try DistinguishedName { CommonName("leaf") }, signatureAlgorithm: intermediate == nil ? .ecdsaWithSHA384 : .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Certificate.Extension(oid: [1, 2, 840, 113635, 100, 8, 2], critical: false, value: nonceExtension[...])
            },
            issuerPrivateKey: intermediate == nil ? Certificate.PrivateKey(rootKey) : Certificate.PrivateKey(intermediateKey))
        var chain = [leaf]
        if let intermediate {
            chain.append(try Certificate(
                version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: Certificate.PublicKey(intermediateKey.publicKey),
                notValidBefore: Self.time - 86_400, notValidAfter: Self.time + 86_400,
                issuer: try Self.rootName(), subject: intermediateName, signatureAlgorithm: .ecdsaWithSHA384,
                extensions: intermediate,
                issuerPrivateKey: Certificate.PrivateKey(rootKey)))
        }
        let x5c = try chain.map { certificate in
            var serializer = DER.Serializer()
            try serializer.serialize(certificate)
            return serializer.serializedBytes
        }
        return AppAttestParts(format: "apple-appattest", x5c: x5c, receipt: [0x30, 0x80], authData: authData).encoded()
    }

    private func root() throws -> Certificate {
        let key = Certificate.PrivateKey(rootKey)
        return try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: key.publicKey,
            notValidBefore: Self.time - 365 * 86_400, notValidAfter: Self.time + 365 * 86_400,
            issuer: try Self.rootName(), subject: try Self.rootName(), signatureAlgorithm: .ecdsaWithSHA384,
            extensions: try Certificate.Extensions { Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil)) },
            issuerPrivateKey: key)
    }

    private static func rootName() throws -> DistinguishedName {
        try DistinguishedName { CommonName("Touchstone Test App Attest Root") }
    }

    /// The uncompressed point of a P-256 key (65 bytes), or the SPKI of another key.
    private static func point(_ key: Certificate.PublicKey) -> [UInt8] {
        P256.Signing.PublicKey(key).map { Array($0.x963Representation) } ?? Array(key.subjectPublicKeyInfoBytes)
    }
}
