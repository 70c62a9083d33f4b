/// A credential record (WebAuthn §7.1 step 27): what a relying party stores for a registered credential and hands
/// back for each authentication.
///
/// Made by registration, updated only from an ``AuthenticationResult`` (``update(from:)``), and `Codable` for
/// storage; the fields are readable so that they can also be stored in columns and restored with
/// ``init(id:publicKey:signCount:backupEligible:backupState:uvInitialized:aaguid:attestationFormat:attestationType:transports:userHandle:)``.
public struct Credential: Sendable, Hashable, Codable {
    /// The credential ID (`rawId`).
    public let id: [UInt8]
    /// The credential public key, COSE_Key in CTAP2 canonical CBOR.
    public let publicKey: [UInt8]
    /// The last signature counter seen (0 for authenticators without one).
    public private(set) var signCount: UInt32
    /// BE: whether the credential may be backed up. Constant for the credential's life.
    public let backupEligible: Bool
    /// BS: whether the credential was backed up when last seen.
    public private(set) var backupState: Bool
    /// Whether the user has been verified with this credential at least once.
    public private(set) var uvInitialized: Bool
    /// The authenticator's AAGUID (16 bytes, all zero when unknown).
    public let aaguid: [UInt8]
    /// The attestation statement format identifier received at registration.
    public let attestationFormat: String
    /// The attestation type accepted at registration.
    public let attestationType: AttestationType
    /// The transports the browser reported (`usb`, `nfc`, `ble`, `smart-card`, `hybrid`, `internal`).
    public let transports: [String]
    /// The user handle (`user.id`) of the account the credential was registered to.
    public let userHandle: [UInt8]

    /// Restores a credential record from storage, checking that its public key is usable.
    /// - Throws: ``WebAuthnError`` (`malformed_credential_public_key`, `unsupported_algorithm`, `invalid_user`).
    /// - ⚠️ Pass only values this package produced and your store kept; never values from a client. A wrong
    ///   `signCount` defeats clone detection.
    public init(
        id: [UInt8], publicKey: [UInt8], signCount: UInt32, backupEligible: Bool, backupState: Bool,
        uvInitialized: Bool, aaguid: [UInt8], attestationFormat: String, attestationType: AttestationType,
        transports: [String], userHandle: [UInt8]
    ) throws(WebAuthnError) {
        _ = try COSEKey(bytes: publicKey)
        guard !id.isEmpty, id.count <= 1023 else { throw WebAuthnError(.credentialIdTooLong, "credential ID of \(id.count) bytes") }
        guard (1...64).contains(userHandle.count) else { throw WebAuthnError(.invalidUser, "user handle of \(userHandle.count) bytes") }
        self.init(
            verifiedID: id, publicKey: publicKey, signCount: signCount, backupEligible: backupEligible,
            backupState: backupState, uvInitialized: uvInitialized, aaguid: aaguid, attestationFormat: attestationFormat,
            attestationType: attestationType, transports: transports, userHandle: userHandle)
    }

    /// A record from a registration that has just been verified (§7.1 step 27); nothing is re-checked here.
    init(
        verifiedID id: [UInt8], publicKey: [UInt8], signCount: UInt32, backupEligible: Bool, backupState: Bool,
        uvInitialized: Bool, aaguid: [UInt8], attestationFormat: String, attestationType: AttestationType,
        transports: [String], userHandle: [UInt8]
    ) {
        self.id = id
        self.publicKey = publicKey
        self.signCount = signCount
        self.backupEligible = backupEligible
        self.backupState = backupState
        self.uvInitialized = uvInitialized
        self.aaguid = aaguid
        self.attestationFormat = attestationFormat
        self.attestationType = attestationType
        self.transports = transports
        self.userHandle = userHandle
    }

    /// Stores a verified authentication's new state (§7.2 step 24): the signature counter, the backup state, and
    /// `uvInitialized` once the user has been verified.
    /// - Throws: ``WebAuthnError`` with code `credential_not_allowed` when the result is for another credential.
    public mutating func update(from result: AuthenticationResult) throws(WebAuthnError) {
        guard result.credentialID == id else {
            throw WebAuthnError(.credentialNotAllowed, "authentication result is for another credential")
        }
        signCount = result.signCount
        backupState = result.backupState
        if result.userVerified { uvInitialized = true }
    }

    private enum CodingKeys: String, CodingKey {
        case id, publicKey, signCount, backupEligible, backupState, uvInitialized, aaguid, attestationFormat,
            attestationType, transports, userHandle
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            id: try c.decode(Base64URLBytes.self, forKey: .id).bytes,
            publicKey: try c.decode(Base64URLBytes.self, forKey: .publicKey).bytes,
            signCount: try c.decode(UInt32.self, forKey: .signCount),
            backupEligible: try c.decode(Bool.self, forKey: .backupEligible),
            backupState: try c.decode(Bool.self, forKey: .backupState),
            uvInitialized: try c.decode(Bool.self, forKey: .uvInitialized),
            aaguid: try c.decode(Base64URLBytes.self, forKey: .aaguid).bytes,
            attestationFormat: try c.decode(String.self, forKey: .attestationFormat),
            attestationType: try c.decode(AttestationType.self, forKey: .attestationType),
            transports: try c.decode([String].self, forKey: .transports),
            userHandle: try c.decode(Base64URLBytes.self, forKey: .userHandle).bytes)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(Base64URLBytes(id), forKey: .id)
        try c.encode(Base64URLBytes(publicKey), forKey: .publicKey)
        try c.encode(signCount, forKey: .signCount)
        try c.encode(backupEligible, forKey: .backupEligible)
        try c.encode(backupState, forKey: .backupState)
        try c.encode(uvInitialized, forKey: .uvInitialized)
        try c.encode(Base64URLBytes(aaguid), forKey: .aaguid)
        try c.encode(attestationFormat, forKey: .attestationFormat)
        try c.encode(attestationType, forKey: .attestationType)
        try c.encode(transports, forKey: .transports)
        try c.encode(Base64URLBytes(userHandle), forKey: .userHandle)
    }
}
