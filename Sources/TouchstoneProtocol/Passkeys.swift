import Foundation

/// `POST /v1/webauthn/authentication/options`: with a username the options name that account's passkeys; without
/// one, the browser offers the user's discoverable passkeys.
public struct PasskeyAuthenticationStart: Codable, Sendable, Equatable {
    public var username: String?

    public init(username: String? = nil) {
        self.username = username
    }
}

/// `201` of `POST /v1/webauthn/registration/verify`.
public struct PasskeyRegistered: Codable, Sendable, Equatable {
    /// The credential ID, base64url.
    public var credentialId: String

    public init(credentialId: String) {
        self.credentialId = credentialId
    }
}

/// One entry of `GET /v1/webauthn/credentials`.
public struct PasskeySummary: Codable, Sendable, Equatable {
    /// The credential ID, base64url.
    public var credentialId: String
    public var name: String
    public var createdAt: Date
    public var lastUsedAt: Date?
    /// Whether the authenticator may back the credential up (a synced passkey).
    public var backupEligible: Bool
    /// Whether it was backed up when last used.
    public var backedUp: Bool

    public init(
        credentialId: String, name: String, createdAt: Date, lastUsedAt: Date?, backupEligible: Bool, backedUp: Bool
    ) {
        self.credentialId = credentialId
        self.name = name
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.backupEligible = backupEligible
        self.backedUp = backedUp
    }

    private enum CodingKeys: String, CodingKey {
        case credentialId, name, createdAt, lastUsedAt, backupEligible, backedUp
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(credentialId, forKey: .credentialId)
        try container.encode(name, forKey: .name)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(lastUsedAt, forKey: .lastUsedAt)
        try container.encode(backupEligible, forKey: .backupEligible)
        try container.encode(backedUp, forKey: .backedUp)
    }
}

/// `GET /v1/webauthn/credentials`.
public struct PasskeyList: Codable, Sendable, Equatable {
    public var credentials: [PasskeySummary]

    public init(credentials: [PasskeySummary]) {
        self.credentials = credentials
    }
}
