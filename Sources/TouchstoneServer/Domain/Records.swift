import Foundation
import TouchstoneProtocol

/// An app (client id) of a publisher, with its policy.
struct AppRecord: Sendable, Equatable {
    var clientId: String
    var publisher: String
    var policy: AppPolicy

    /// The app an empty database gets, so that the first run works with no set-up; also the app of requests that
    /// name none (web logins, passkey sign-ins, legacy clients).
    static let demo = AppRecord(
        clientId: "com.example.demo", publisher: "demo",
        policy: AppPolicy(clientId: "com.example.demo", publisher: "demo"))
}

/// An account.
struct UserRecord: Sendable, Equatable {
    var id: String
    var username: String
    var passwordHash: String
    var createdAt: Date
}

/// An enrolled device with its two keys and PIN state.
struct DeviceRecord: Sendable, Equatable {
    var id: String
    var userId: String
    var clientId: String
    var publisher: String
    var name: String
    var model: String
    var vendorId: String
    var os: String
    var fingerprint: String
    var deviceKey: PublicJWK
    var deviceKeyThumbprint: String
    var biometricKey: PublicJWK?
    var biometricKeyThumbprint: String?
    var pinHash: String?
    var pinFailures: Int
    var pinLockedAt: Date?
    var createdAt: Date
    var lastUsedAt: Date?
    var revokedAt: Date?
    /// Whether the device ever reported being compromised (at enrolment or in an assertion).
    var compromised: Bool = false

    var isActive: Bool { revokedAt == nil }

    /// The registered key a token's `kid` names, and whether it is the biometric key (the device key signs only
    /// together with the PIN); `nil` for any other key, including a biometric key revoked by opt-out.
    func registeredKey(kid: String) -> (jwk: PublicJWK, isBiometric: Bool)? {
        if let biometricKey, kid == biometricKeyThumbprint { return (biometricKey, true) }
        if kid == deviceKeyThumbprint { return (deviceKey, false) }
        return nil
    }
}

/// The device data of a completed enrolment, kept while the enrolment waits for approval.
struct PendingDevice: Codable, Sendable, Equatable {
    var device: DeviceDescription
    var fingerprint: String
    var deviceKey: PublicJWK
    var deviceKeyThumbprint: String
    var biometricKey: PublicJWK?
    var biometricKeyThumbprint: String?
    var pinHash: String?
    var ip: String
}

/// An enrolment from its password check to its device.
struct EnrollmentRecord: Sendable, Equatable {
    enum State: String, Sendable {
        /// Waiting for the device's proofs.
        case started
        /// Its challenge was answered; the enrolment is being completed.
        case consumed
        /// Proofs accepted; waiting for another device's approval.
        case pending
        case approved
        case denied
        /// The device exists (directly, or once an approval has been delivered).
        case completed
        /// Ended without a device: over the approval limits, or the password changed meanwhile.
        case cancelled
    }

    var id: String
    var userId: String
    var clientId: String
    var challenge: String
    var challengeExpiresAt: Date
    var state: State
    var pollSecretHash: String?
    var pendingExpiresAt: Date?
    var pendingDevice: PendingDevice?
    var deviceId: String?
    var createdAt: Date
    /// The challenge an approving device signs, once the enrolment waits for approval.
    var approvalChallenge: String?
    /// The number the new device shows, and the three its approver picks among (number matching).
    var approvalNumber: Int?
    var approvalNumbers: [Int]?
}

/// An inbox item's state: the decision, or `suppressed` for a request that is answered but never delivered.
enum ItemStatus: String, Sendable {
    case pending, approved, denied, suppressed
}

/// A transaction a relying service asks the user to confirm.
struct ConfirmationRecord: Sendable, Equatable {
    var id: String
    var clientId: String
    var publisher: String
    /// `nil` when the username is unknown to the key's publisher: never delivered.
    var userId: String?
    var text: String
    var amount: String
    var currency: String
    var payee: String
    var txn: String
    var challenge: String
    var createdAt: Date
    var expiresAt: Date
    var status: ItemStatus
    var decidedAt: Date?
    var deviceId: String?
    var amr: [String]?
}

/// A browser's request to log in, approved from an enrolled device by number matching.
struct WebLoginRecord: Sendable, Equatable {
    var id: String
    var userId: String?
    var clientId: String
    var publisher: String
    var number: Int
    var numbers: [Int]
    var pollSecretHash: String
    var challenge: String
    var browser: String
    var ip: String
    var createdAt: Date
    var expiresAt: Date
    var status: ItemStatus
    var decidedAt: Date?
    var deviceId: String?
    var amr: [String]?
}

/// A session: the family of its refresh tokens.
struct SessionRecord: Sendable, Equatable {
    var id: String
    var userId: String
    var deviceId: String?
    var clientId: String
    var amr: [String]
    var acr: String
    var authTime: Date
    var lastActivityAt: Date
    var createdAt: Date
    var revokedAt: Date?
    /// The device whose approval made this session (web login), which it does not outlive.
    var approvedBy: String?
}

/// An API key of an app, stored as its SHA-256.
struct APIKeyRecord: Sendable, Equatable {
    var id: String
    var clientId: String
    var createdAt: Date
    var revokedAt: Date?
}

/// A token-signing key of the server.
struct ServerKeyRecord: Sendable, Equatable {
    var kid: String
    /// The P-256 private key's raw representation, base64url.
    var privateKey: String
    var createdAt: Date
    var activatesAt: Date
    var retiredAt: Date?
}

/// One audited event.
public struct AuditEvent: Sendable, Equatable, Codable {
    public var at: Date
    public var event: String
    public var outcome: String
    public var userId: String?
    public var deviceId: String?
    public var clientId: String?
    public var ip: String?
    public var detail: String?
}
