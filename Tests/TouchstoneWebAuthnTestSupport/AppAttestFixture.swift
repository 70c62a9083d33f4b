import Crypto
import Foundation
import SwiftASN1
import TouchstoneWebAuthn
import X509

/// An App Attest attestation built here, under a test root, so that each field can be set on its own and the nonce
/// still covers it: what Apple's samples cannot show, since changing a byte of theirs breaks the nonce first.
public struct AppAttestFixture: Sendable {
    public static let appID = "ABCDE12345.com.example.touchstone"
    public static let time = Date(timeIntervalSince1970: 1_800_000_000)

    public let rootKey = P384.Signing.PrivateKey()
    public var leafKey = Certificate.PrivateKey(P256.Signing.PrivateKey())
    public var rpID = appID
    public var flags: UInt8 = 0x40
    public var counter: UInt32 = 0
    public var aaguid = Array("appattest".utf8) + Array(repeating: 0, count: 7)
    /// The credential ID; nil for keyId.
    public var credentialID: [UInt8]?
    /// Bytes after the credential key (iOS 27's extension map, for example).
    public var trailing: [UInt8] = []
    /// The extensions of an intermediate between the root and the leaf; no intermediate when nil.
    public var intermediate: Certificate.Extensions?
    public let intermediateKey = P256.Signing.PrivateKey()
    public var clientDataHash = Array(SHA256.hash(data: Array("touchstone-appattest-v1\nchallenge\nkid\n".utf8)))
    /// The instant the certificates are valid around (a day either side for the leaf, a year for the root).
    public var time = Self.time

    public init() {}

    /// The root certificate's PEM, to trust insecurely.
    public func rootPEM() throws -> String {
        try root().serializeAsPEM().pemString
    }

    /// The leaf key's identifier: SHA-256 of its uncompressed point.
    public var keyID: [UInt8] {
        Array(SHA256.hash(data: Self.point(leafKey.publicKey)))
    }

    public func authenticatorData() -> [UInt8] {
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
    public func attestationObject() throws -> [UInt8] {
        let authData = authenticatorData()
        let nonce = Array(SHA256.hash(data: authData + clientDataHash))
        let nonceExtension = [0x30, 0x24, 0xa1, 0x22, 0x04, 0x20] + nonce
        let intermediateName = try DistinguishedName { CommonName("Touchstone Test Intermediate") }
        let leaf = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: leafKey.publicKey,
            notValidBefore: time - 86_400, notValidAfter: time + 86_400,
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
                notValidBefore: time - 86_400, notValidAfter: time + 86_400,
                issuer: try Self.rootName(), subject: intermediateName, signatureAlgorithm: .ecdsaWithSHA384,
                extensions: intermediate,
                issuerPrivateKey: Certificate.PrivateKey(rootKey)))
        }
        let x5c = try chain.map { certificate in
            var serializer = DER.Serializer()
            try serializer.serialize(certificate)
            return serializer.serializedBytes
        }
        return Self.encode(format: "apple-appattest", x5c: x5c, receipt: [0x30, 0x80], authData: authData)
    }

    /// The canonical CBOR attestation object `{fmt, attStmt: {x5c, receipt}, authData}`.
    public static func encode(format: String, x5c: [[UInt8]], receipt: [UInt8], authData: [UInt8]) -> [UInt8] {
        let statement = CBORMap([
            CBORMap.Entry(key: .text("x5c"), value: .array(x5c.map { .bytes($0) })),
            CBORMap.Entry(key: .text("receipt"), value: .bytes(receipt)),
        ])
        return CBOREncoder.encode(.map(CBORMap([
            CBORMap.Entry(key: .text("fmt"), value: .text(format)),
            CBORMap.Entry(key: .text("attStmt"), value: .map(statement)),
            CBORMap.Entry(key: .text("authData"), value: .bytes(authData)),
        ])))
    }

    private func root() throws -> Certificate {
        let key = Certificate.PrivateKey(rootKey)
        return try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: key.publicKey,
            notValidBefore: time - 365 * 86_400, notValidAfter: time + 365 * 86_400,
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
