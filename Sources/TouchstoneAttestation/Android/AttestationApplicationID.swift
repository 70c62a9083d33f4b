import SwiftASN1

/// The app that created the key, as Android's package manager describes it (`AttestationApplicationId`, tag 709):
/// every package sharing the app's Linux user id, and the SHA-256 of every certificate that signed the app.
public struct AttestationApplicationID: Sendable, Hashable {
    /// One package of the app.
    public struct Package: Sendable, Hashable {
        /// The package name, for example `com.example.app`.
        public let name: String
        /// The package's version code.
        public let version: Int
    }

    /// The packages.
    public let packages: [Package]
    /// The SHA-256 digests of the app's signing certificates.
    public let signatureDigests: [[UInt8]]

    /// Parses the content of the OCTET STRING of tag 709: the DER of
    /// `SEQUENCE { SET OF SEQUENCE { OCTET STRING name, INTEGER version }, SET OF OCTET STRING }`.
    init(derEncoded bytes: [UInt8]) throws {
        let fields = try KeyDescriptionDER.sequence(try DER.parse(bytes))
        guard fields.count == 2 else {
            throw ASN1Error.invalidASN1Object(reason: "AttestationApplicationId has \(fields.count) fields, not 2")
        }
        packages = try DER.set(fields[0], identifier: .set) { nodes in
            var packages: [Package] = []
            while let node = nodes.next() { packages.append(try Self.package(node)) }
            return packages
        }
        signatureDigests = try DER.set(fields[1], identifier: .set) { nodes in
            var digests: [[UInt8]] = []
            while let node = nodes.next() { digests.append(try KeyDescriptionDER.octets(node)) }
            return digests
        }
    }

    private static func package(_ node: ASN1Node) throws -> Package {
        let fields = try KeyDescriptionDER.sequence(node)
        guard fields.count == 2 else {
            throw ASN1Error.invalidASN1Object(reason: "AttestationPackageInfo has \(fields.count) fields, not 2")
        }
        guard let name = String(validating: try KeyDescriptionDER.octets(fields[0]), as: UTF8.self) else {
            throw ASN1Error.invalidASN1Object(reason: "package name is not UTF-8")
        }
        return Package(name: name, version: try KeyDescriptionDER.integer(fields[1]))
    }
}
