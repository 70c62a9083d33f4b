import SwiftASN1

/// The parts of Android's key attestation extension (OID 1.3.6.1.4.1.11129.2.1.17, `KeyDescription`) that
/// WebAuthn §8.4 checks.
package struct AndroidKeyDescription: Sendable {
    /// One `AuthorizationList`, reduced to the tags WebAuthn looks at.
    struct AuthorizationList: Sendable {
        /// `purpose` ([1] SET OF INTEGER), when present.
        var purposes: [Int]?
        /// `allApplications` ([600] NULL) is present.
        var allApplications = false
        /// `origin` ([702] INTEGER), when present.
        var origin: Int?
    }

    /// The X.509 extension that carries it in an attestation certificate.
    package static let extensionOID: ASN1ObjectIdentifier = [1, 3, 6, 1, 4, 1, 11129, 2, 1, 17]
    /// `KM_ORIGIN_GENERATED`.
    static let originGenerated = 0
    /// `KM_PURPOSE_SIGN`.
    static let purposeSign = 2

    let attestationChallenge: [UInt8]
    let softwareEnforced: AuthorizationList
    let teeEnforced: AuthorizationList

    /// Parses the extension value (the DER `KeyDescription`).
    package init(derEncoded bytes: ArraySlice<UInt8>) throws {
        let root = try DER.parse(bytes)
        (attestationChallenge, softwareEnforced, teeEnforced) = try DER.sequence(root, identifier: .sequence) { nodes in
            _ = try Int(derEncoded: &nodes)  // attestationVersion
            _ = try Int(derEncoded: &nodes, withIdentifier: .enumerated)  // attestationSecurityLevel
            _ = try Int(derEncoded: &nodes)  // keymasterVersion / keyMintVersion
            _ = try Int(derEncoded: &nodes, withIdentifier: .enumerated)  // keymasterSecurityLevel
            let challenge = Array(try ASN1OctetString(derEncoded: &nodes).bytes)
            _ = try ASN1OctetString(derEncoded: &nodes)  // uniqueId
            guard let software = nodes.next(), let tee = nodes.next() else {
                throw ASN1Error.invalidASN1Object(reason: "KeyDescription lacks its authorization lists")
            }
            // Later KeyDescription versions may append fields: tolerate them.
            while nodes.next() != nil {}
            return (challenge, try Self.authorizationList(software), try Self.authorizationList(tee))
        }
    }

    private static func authorizationList(_ node: ASN1Node) throws -> AuthorizationList {
        guard node.identifier == .sequence, case .constructed(let children) = node.content else {
            throw ASN1Error.unexpectedFieldType(node.identifier)
        }
        var list = AuthorizationList()
        var seen: Set<UInt> = []
        for child in children {
            guard child.identifier.tagClass == .contextSpecific else { throw ASN1Error.unexpectedFieldType(child.identifier) }
            let tag = child.identifier.tagNumber
            guard seen.insert(tag).inserted else {
                throw ASN1Error.invalidASN1Object(reason: "AuthorizationList repeats tag \(tag)")
            }
            switch tag {
            case 1:
                list.purposes = try DER.explicitlyTagged(child, tagNumber: 1, tagClass: .contextSpecific) { inner in
                    try DER.set(of: Int.self, identifier: .set, rootNode: inner)
                }
            case 600:
                list.allApplications = true
            case 702:
                list.origin = try DER.explicitlyTagged(child, tagNumber: 702, tagClass: .contextSpecific) { inner in
                    try Int(derEncoded: inner)
                }
            default:
                continue
            }
        }
        return list
    }
}
