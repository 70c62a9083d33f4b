import SwiftASN1

/// ⚠️ TESTS ONLY. What a test attestation says about one key: Android's `KeyDescription` extension (attestation
/// version 300, KeyMint 3), every field the enrolment policy judges settable on its own.
///
/// The defaults describe a key the policy accepts: generated in a TEE for signing, on a locked device with a verified
/// boot, by the given app.
public struct TestKeyDescription: Sendable, Hashable {
    /// `SecurityLevel`: 0 Software, 1 TrustedEnvironment, 2 StrongBox.
    public var attestationSecurityLevel = 1
    public var keyMintSecurityLevel = 1
    public var challenge: [UInt8]
    /// `hardwareEnforced` `purpose`; 2 is SIGN.
    public var purposes = [2]
    /// `hardwareEnforced` `origin`; 0 is GENERATED, `nil` leaves it out.
    public var origin: Int? = 0
    /// `VerifiedBootState`: 0 Verified, 1 SelfSigned, 2 Unverified, 3 Failed.
    public var verifiedBootState = 0
    public var deviceLocked = true
    public var packageName: String
    public var signingCertificateSHA256: [UInt8]
    /// `hardwareEnforced` `userAuthType`; 2 is the biometric bit, `nil` leaves it out.
    public var userAuthType: Int?
    public var noAuthRequired = false
    /// `hardwareEnforced` `authTimeout` in seconds; `nil` leaves it out.
    public var authTimeout: Int?

    /// A key of `packageName` signed by the certificate with digest `signingCertificateSHA256`, attested over
    /// `challenge`: a device key (no user authentication), or with `biometric` one that needs a biometric every use.
    public init(challenge: [UInt8], packageName: String, signingCertificateSHA256: [UInt8], biometric: Bool) {
        self.challenge = challenge
        self.packageName = packageName
        self.signingCertificateSHA256 = signingCertificateSHA256
        if biometric {
            userAuthType = 2
        } else {
            noAuthRequired = true
        }
    }

    /// The extension's DER, tags of each authorization list in ascending order.
    public func derEncoded() throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.appendConstructedNode(identifier: .sequence) { description in
            try description.serialize(300)
            try attestationSecurityLevel.serialize(into: &description, withIdentifier: .enumerated)
            try description.serialize(300)
            try keyMintSecurityLevel.serialize(into: &description, withIdentifier: .enumerated)
            try description.serialize(ASN1OctetString(contentBytes: challenge[...]))
            try description.serialize(ASN1OctetString(contentBytes: []))
            try description.appendConstructedNode(identifier: .sequence) { software in
                try software.serialize(
                    ASN1OctetString(contentBytes: try applicationID()[...]), explicitlyTaggedWithTagNumber: 709,
                    tagClass: .contextSpecific)
            }
            try description.appendConstructedNode(identifier: .sequence) { try hardwareEnforced(&$0) }
        }
        return serializer.serializedBytes
    }

    private func hardwareEnforced(_ list: inout DER.Serializer) throws {
        try list.serialize(explicitlyTaggedWithTagNumber: 1, tagClass: .contextSpecific) { try $0.serializeSetOf(purposes) }
        try list.serialize(3, explicitlyTaggedWithTagNumber: 2, tagClass: .contextSpecific)  // EC
        try list.serialize(256, explicitlyTaggedWithTagNumber: 3, tagClass: .contextSpecific)
        if noAuthRequired {
            try list.serialize(ASN1Null(), explicitlyTaggedWithTagNumber: 503, tagClass: .contextSpecific)
        }
        if let userAuthType {
            try list.serialize(userAuthType, explicitlyTaggedWithTagNumber: 504, tagClass: .contextSpecific)
        }
        if let authTimeout {
            try list.serialize(authTimeout, explicitlyTaggedWithTagNumber: 505, tagClass: .contextSpecific)
        }
        if let origin {
            try list.serialize(origin, explicitlyTaggedWithTagNumber: 702, tagClass: .contextSpecific)
        }
        try list.serialize(explicitlyTaggedWithTagNumber: 704, tagClass: .contextSpecific) { tagged in
            try tagged.appendConstructedNode(identifier: .sequence) { root in
                try root.serialize(ASN1OctetString(contentBytes: ArraySlice(repeating: 0x42, count: 32)))
                try root.serialize(deviceLocked)
                try verifiedBootState.serialize(into: &root, withIdentifier: .enumerated)
                try root.serialize(ASN1OctetString(contentBytes: ArraySlice(repeating: 0x24, count: 32)))
            }
        }
    }

    /// `AttestationApplicationId`: one package (version 1) and one signing-certificate digest.
    private func applicationID() throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.appendConstructedNode(identifier: .sequence) { id in
            try id.appendConstructedNode(identifier: .set) { packages in
                try packages.appendConstructedNode(identifier: .sequence) { package in
                    try package.serialize(ASN1OctetString(contentBytes: ArraySlice(packageName.utf8)))
                    try package.serialize(1)
                }
            }
            try id.serializeSetOf([ASN1OctetString(contentBytes: signingCertificateSHA256[...])])
        }
        return serializer.serializedBytes
    }
}
