import Crypto
import Foundation
import SwiftASN1
import X509

/// ⚠️ TESTS ONLY: a certificate authority that makes Android-like key attestation chains (root → intermediate → leaf
/// with a `KeyDescription`) for any key, saying whatever a test needs.
///
/// A server trusts it only when started with `--insecure-attestation-root` of its ``rootPEM``: a production server
/// never does, and refuses everything it signs.
public struct InsecureTestAttestationCA: Sendable {
    /// The self-signed root, to trust with `--insecure-attestation-root`.
    public let root: Certificate
    /// The CA that signs the leaves.
    public let intermediate: Certificate
    private let rootKey: P256.Signing.PrivateKey
    private let intermediateKey: P256.Signing.PrivateKey

    /// The OID of Android's key attestation extension.
    static let keyDescriptionOID: ASN1ObjectIdentifier = [1, 3, 6, 1, 4, 1, 11129, 2, 1, 17]

    /// A new CA, valid from a day before `now` for ten years.
    public init(now: Date = Date()) throws {
        try self.init(rootKey: P256.Signing.PrivateKey(), intermediateKey: P256.Signing.PrivateKey(), now: now)
    }

    private init(rootKey: P256.Signing.PrivateKey, intermediateKey: P256.Signing.PrivateKey, now: Date) throws {
        self.rootKey = rootKey
        self.intermediateKey = intermediateKey
        let rootName = try DistinguishedName { CommonName("Touchstone INSECURE Test Attestation Root") }
        let intermediateName = try DistinguishedName { CommonName("Touchstone INSECURE Test Attestation CA") }
        let validity = (now - 86_400, now + 10 * 365 * 86_400)
        let extensions = try Certificate.Extensions {
            Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
            Critical(KeyUsage(keyCertSign: true))
        }
        root = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(rootKey.publicKey),
            notValidBefore: validity.0, notValidAfter: validity.1, issuer: rootName, subject: rootName,
            signatureAlgorithm: .ecdsaWithSHA256, extensions: extensions, issuerPrivateKey: .init(rootKey))
        intermediate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(intermediateKey.publicKey),
            notValidBefore: validity.0, notValidAfter: validity.1, issuer: rootName, subject: intermediateName,
            signatureAlgorithm: .ecdsaWithSHA256, extensions: extensions, issuerPrivateKey: .init(rootKey))
    }

    /// The CA kept in `directory` (`root-key.pem`, `intermediate-key.pem`), made and kept there first when the
    /// directory holds none; its root is also written to `root.pem` there, for `--insecure-attestation-root`.
    ///
    /// The certificates are made again from the keys at each call, so the root's PEM changes but its subject and key,
    /// which anchor the chain, do not.
    /// - Throws: when the directory cannot be written or holds keys that are not P-256 PEM.
    public static func inDirectory(_ directory: URL) throws -> InsecureTestAttestationCA {
        // A fixed start (November 2023, for ten years) keeps the root's validity the same whenever it is made again.
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let rootFile = directory.appendingPathComponent("root-key.pem")
        let intermediateFile = directory.appendingPathComponent("intermediate-key.pem")
        let ca: InsecureTestAttestationCA
        if FileManager.default.fileExists(atPath: rootFile.path) {
            ca = try InsecureTestAttestationCA(
                rootKey: try P256.Signing.PrivateKey(pemRepresentation: String(contentsOf: rootFile, encoding: .utf8)),
                intermediateKey: try P256.Signing.PrivateKey(
                    pemRepresentation: String(contentsOf: intermediateFile, encoding: .utf8)),
                now: start)
        } else {
            ca = try InsecureTestAttestationCA(now: start)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try ca.rootKey.pemRepresentation.write(to: rootFile, atomically: true, encoding: .utf8)
            try ca.intermediateKey.pemRepresentation.write(to: intermediateFile, atomically: true, encoding: .utf8)
        }
        try ca.rootPEM().write(to: directory.appendingPathComponent("root.pem"), atomically: true, encoding: .utf8)
        return ca
    }

    /// The root certificate as PEM.
    public func rootPEM() throws -> String {
        try root.serializeAsPEM().pemString
    }

    /// The intermediate's serial number as Google's status list keys it: lowercase hexadecimal, no leading zeros.
    public var intermediateSerial: String {
        let hex = intermediate.serialNumber.bytes.map { String(format: "%02x", $0) }.joined()
        let trimmed = hex.drop { $0 == "0" }
        return trimmed.isEmpty ? "0" : String(trimmed)
    }

    /// An attestation chain for a key, leaf first, each certificate's DER, as `KeyStore.getCertificateChain` gives it.
    /// - Parameters:
    ///   - subjectPublicKeyInfo: the attested key, as DER `SubjectPublicKeyInfo`.
    ///   - description: what the leaf's `KeyDescription` says; `nil` leaves the extension out.
    ///   - validity: the leaf's validity; by default an hour either side of now.
    public func androidChain(
        subjectPublicKeyInfo: [UInt8], description: TestKeyDescription?, validity: ClosedRange<Date>? = nil
    ) throws -> [[UInt8]] {
        let validity = validity ?? (Date() - 3_600)...(Date() + 3_600)
        let extensions = try Certificate.Extensions {
            if let description {
                Certificate.Extension(oid: Self.keyDescriptionOID, critical: false, value: try description.derEncoded()[...])
            }
        }
        let leaf = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(),
            publicKey: try Certificate.PublicKey(derEncoded: subjectPublicKeyInfo),
            notValidBefore: validity.lowerBound, notValidAfter: validity.upperBound, issuer: intermediate.subject,
            subject: try DistinguishedName { CommonName("Android Keystore Key") }, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: extensions, issuerPrivateKey: .init(intermediateKey))
        return try [leaf, intermediate, root].map { certificate in
            var serializer = DER.Serializer()
            try serializer.serialize(certificate)
            return serializer.serializedBytes
        }
    }
}
