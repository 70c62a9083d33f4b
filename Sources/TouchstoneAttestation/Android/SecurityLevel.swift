import SwiftASN1

/// Where Android says a key or its attestation lives (`SecurityLevel` of the key attestation schema).
public enum SecurityLevel: Int, Sendable, Hashable {
    /// Android's software keystore: no hardware protection.
    case software = 0
    /// A Trusted Execution Environment (TrustZone and the like).
    case trustedEnvironment = 1
    /// A StrongBox: a separate secure element.
    case strongBox = 2

    /// Reads an ENUMERATED security level.
    init(derEncoded node: ASN1Node) throws {
        let value = try KeyDescriptionDER.enumerated(node)
        guard let level = SecurityLevel(rawValue: value) else {
            throw ASN1Error.invalidASN1Object(reason: "SecurityLevel \(value) is not defined")
        }
        self = level
    }
}
