import Foundation
import TouchstoneProtocol

/// A user in the admin API's lists (`GET /admin/v1/users` pages them), and in `admin users`.
package struct AdminUser: AdminPageItem {
    package static let listMember = "users"

    package var userId: String
    package var username: String
    package var createdAt: Date
}

/// `GET /admin/v1/users/{userId}`: the user, every device (revoked ones too, `active` false), passkeys, and how many
/// recovery codes are left.
package struct AdminUserDetail: Sendable, Codable, Equatable {
    package struct Device: Sendable, Codable, Equatable {
        package var deviceId: String
        package var clientId: String
        package var name: String
        package var model: String
        package var createdAt: Date
        package var lastUsedAt: Date?
        package var biometric: Bool
        /// What the device's attestation proved at enrolment; null when it sent none.
        package var attestation: DeviceAttestationKind?
        package var pinLocked: Bool
        package var active: Bool

        private enum CodingKeys: String, CodingKey {
            case deviceId, clientId, name, model, createdAt, lastUsedAt, biometric, attestation, pinLocked, active
        }

        /// Every member, absent ones as null.
        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(deviceId, forKey: .deviceId)
            try container.encode(clientId, forKey: .clientId)
            try container.encode(name, forKey: .name)
            try container.encode(model, forKey: .model)
            try container.encode(createdAt, forKey: .createdAt)
            try container.encode(lastUsedAt, forKey: .lastUsedAt)
            try container.encode(biometric, forKey: .biometric)
            try container.encode(attestation, forKey: .attestation)
            try container.encode(pinLocked, forKey: .pinLocked)
            try container.encode(active, forKey: .active)
        }
    }

    package struct Passkey: Sendable, Codable, Equatable {
        package var credentialId: String
        package var name: String
        package var createdAt: Date
    }

    package var userId: String
    package var username: String
    package var createdAt: Date
    package var devices: [Device]
    package var passkeys: [Passkey]
    package var recoveryCodesRemaining: Int
}

/// A device as `admin devices` shows it, of any user.
package struct DeviceView: Sendable, Codable, Equatable {
    package var deviceId: String
    package var username: String
    package var clientId: String
    package var publisher: String
    package var name: String
    package var model: String
    package var biometric: Bool
    package var pinLocked: Bool
    package var createdAt: Date
    package var lastUsedAt: Date?
    package var revokedAt: Date?
    /// What the device's attestation proved at enrolment; null in JSON when it sent none.
    package var attestation: DeviceAttestationKind?

    private enum CodingKeys: String, CodingKey {
        case deviceId, username, clientId, publisher, name, model, biometric, pinLocked, createdAt, lastUsedAt
        case revokedAt, attestation
    }

    /// Every member, `attestation` as null when there is none.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(deviceId, forKey: .deviceId)
        try container.encode(username, forKey: .username)
        try container.encode(clientId, forKey: .clientId)
        try container.encode(publisher, forKey: .publisher)
        try container.encode(name, forKey: .name)
        try container.encode(model, forKey: .model)
        try container.encode(biometric, forKey: .biometric)
        try container.encode(pinLocked, forKey: .pinLocked)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encodeIfPresent(lastUsedAt, forKey: .lastUsedAt)
        try container.encodeIfPresent(revokedAt, forKey: .revokedAt)
        try container.encode(attestation, forKey: .attestation)
    }
}
