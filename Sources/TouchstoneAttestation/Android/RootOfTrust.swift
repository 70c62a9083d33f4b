import SwiftASN1

/// The device's boot state as its bootloader reported it to the secure hardware (`RootOfTrust`, tag 704).
public struct RootOfTrust: Sendable, Hashable {
    /// A digest of the key that verified the boot image (32 zero bytes or empty on some devices).
    public let verifiedBootKey: [UInt8]
    /// Whether the bootloader is locked.
    public let deviceLocked: Bool
    /// Whether the boot image was verified.
    public let verifiedBootState: VerifiedBootState
    /// A digest of the verified boot data; present from attestation version 3.
    public let verifiedBootHash: [UInt8]?

    /// Parses `SEQUENCE { verifiedBootKey OCTET STRING, deviceLocked BOOLEAN, verifiedBootState ENUMERATED,
    /// verifiedBootHash OCTET STRING OPTIONAL }`.
    init(derEncoded node: ASN1Node) throws {
        let fields = try KeyDescriptionDER.sequence(node)
        guard fields.count == 3 || fields.count == 4 else {
            throw ASN1Error.invalidASN1Object(reason: "RootOfTrust has \(fields.count) fields, not 3 or 4")
        }
        verifiedBootKey = try KeyDescriptionDER.octets(fields[0])
        deviceLocked = try KeyDescriptionDER.boolean(fields[1])
        verifiedBootState = try KeyDescriptionDER.enumerated(fields[2], as: VerifiedBootState.self)
        verifiedBootHash = fields.count == 4 ? try KeyDescriptionDER.octets(fields[3]) : nil
    }
}
