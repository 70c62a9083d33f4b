import Foundation
import SwiftASN1

/// The properties of an attested key that one party enforces (`AuthorizationList`): `softwareEnforced` (Android)
/// or `hardwareEnforced` (the TEE or StrongBox).
///
/// Holds the tags Touchstone reads; other tags are checked for shape and order, then skipped. Every tag is optional.
public struct AuthorizationList: Sendable, Hashable {
    /// `purpose` [1]: what the key may do (2 = SIGN, 3 = VERIFY, …); empty when absent.
    public private(set) var purposes: [Int] = []
    /// `algorithm` [2]: 1 = RSA, 3 = EC.
    public private(set) var algorithm: Int?
    /// `keySize` [3], in bits.
    public private(set) var keySize: Int?
    /// `ecCurve` [10]: 0 = P-224, 1 = P-256, 2 = P-384, 3 = P-521, 4 = Curve25519.
    public private(set) var ecCurve: Int?
    /// `noAuthRequired` [503]: the key can be used without authenticating the user.
    public private(set) var noAuthRequired = false
    /// `userAuthType` [504]: which authenticators unlock the key, a bitmask (1 = password, 2 = biometric).
    public private(set) var userAuthType: Int?
    /// `authTimeout` [505]: seconds a successful authentication unlocks the key for.
    public private(set) var authTimeout: Int?
    /// `creationDateTime` [701].
    public private(set) var creationDateTime: Date?
    /// `origin` [702]: 0 = GENERATED in the secure hardware, 2 = IMPORTED, ….
    public private(set) var origin: Int?
    /// `rootOfTrust` [704].
    public private(set) var rootOfTrust: RootOfTrust?
    /// `attestationApplicationId` [709].
    public private(set) var attestationApplicationID: AttestationApplicationID?

    /// Parses a SEQUENCE of explicitly tagged fields, tags in strictly ascending order.
    init(derEncoded node: ASN1Node) throws {
        var previousTag: UInt?
        for field in try KeyDescriptionDER.sequence(node) {
            guard field.identifier.tagClass == .contextSpecific else {
                throw ASN1Error.unexpectedFieldType(field.identifier)
            }
            let tag = field.identifier.tagNumber
            if let previousTag {
                guard tag != previousTag else { throw ASN1Error.invalidASN1Object(reason: "tag [\(tag)] is repeated") }
                guard tag > previousTag else {
                    throw ASN1Error.invalidASN1Object(reason: "tag [\(tag)] follows [\(previousTag)]: not ascending")
                }
            }
            previousTag = tag
            let value = try DER.explicitlyTagged(field, tagNumber: tag, tagClass: .contextSpecific) { $0 }
            switch tag {
            case 1: purposes = try KeyDescriptionDER.integers(value)
            case 2: algorithm = try KeyDescriptionDER.integer(value)
            case 3: keySize = try KeyDescriptionDER.integer(value)
            case 10: ecCurve = try KeyDescriptionDER.integer(value)
            case 503:
                try KeyDescriptionDER.null(value)
                noAuthRequired = true
            case 504: userAuthType = try KeyDescriptionDER.integer(value)
            case 505: authTimeout = try KeyDescriptionDER.integer(value)
            case 701:
                let milliseconds = try KeyDescriptionDER.integer(value)
                creationDateTime = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
            case 702: origin = try KeyDescriptionDER.integer(value)
            case 704: rootOfTrust = try RootOfTrust(derEncoded: value)
            case 709:
                attestationApplicationID = try AttestationApplicationID(derEncoded: try KeyDescriptionDER.octets(value))
            default: break
            }
        }
    }
}
