import SwiftASN1
import TouchstoneWebAuthn

/// Android's key attestation extension (OID 1.3.6.1.4.1.11129.2.1.17): what the secure hardware says about a key.
///
/// Parsed as strict DER — definite, minimal lengths; minimal integers; nothing after the last field; the tags of each
/// authorization list in strictly ascending order — except that a BOOLEAN encoded 0x01, which real devices send, reads
/// as true. Attestation versions 2, 3, 4 (Keymaster 3 to 4.1) and 100, 200, 300, 400 (KeyMint 1 to 4) are accepted.
public struct KeyDescription: Sendable, Hashable {
    /// The attestation versions Android documents for this schema.
    static let knownVersions: Set<Int> = [2, 3, 4, 100, 200, 300, 400]

    /// The version of the attestation schema.
    public let attestationVersion: Int
    /// Where the attestation was made.
    public let attestationSecurityLevel: SecurityLevel
    /// The Keymaster or KeyMint version.
    public let keyMintVersion: Int
    /// Where the key lives.
    public let keyMintSecurityLevel: SecurityLevel
    /// The challenge the app passed when it generated the key.
    public let attestationChallenge: [UInt8]
    /// The properties Android enforces; only `creationDateTime` and `attestationApplicationID` count from here.
    public let softwareEnforced: AuthorizationList
    /// The properties the secure hardware enforces.
    public let hardwareEnforced: AuthorizationList

    /// Parses the extension's value.
    /// - Throws: ``AttestationError`` with code ``AttestationError/Code/malformedKeyDescription``; never traps.
    public init(derEncoded bytes: [UInt8]) throws(AttestationError) {
        do {
            let fields = try KeyDescriptionDER.sequence(try DER.parse(bytes))
            guard fields.count == 8 else {
                throw ASN1Error.invalidASN1Object(reason: "KeyDescription has \(fields.count) fields, not 8")
            }
            attestationVersion = try KeyDescriptionDER.integer(fields[0])
            guard Self.knownVersions.contains(attestationVersion) else {
                throw ASN1Error.invalidASN1Object(reason: "attestation version \(attestationVersion) is unknown")
            }
            attestationSecurityLevel = try KeyDescriptionDER.enumerated(fields[1], as: SecurityLevel.self)
            keyMintVersion = try KeyDescriptionDER.integer(fields[2])
            keyMintSecurityLevel = try KeyDescriptionDER.enumerated(fields[3], as: SecurityLevel.self)
            attestationChallenge = try KeyDescriptionDER.octets(fields[4])
            _ = try KeyDescriptionDER.octets(fields[5])  // uniqueId
            softwareEnforced = try AuthorizationList(derEncoded: fields[6])
            hardwareEnforced = try AuthorizationList(derEncoded: fields[7])
        } catch {
            throw AttestationError(.malformedKeyDescription, "\(error)")
        }
    }

    /// The OID of the extension.
    static var extensionOID: ASN1ObjectIdentifier { AndroidKeyDescription.extensionOID }
}
