import Foundation
import TouchstoneProtocol

/// An app (client id) of a publisher, with its policy.
package struct AppRecord: Sendable, Equatable {
    package var clientId: String
    package var publisher: String
    package var policy: AppPolicy
    /// The builds whose attestations the app accepts (its policy says whether one is required).
    package var attestedApps: AttestedApps

    /// The app an empty database gets, so that the first run works with no set-up; also the app of requests that
    /// name none (web logins, passkey sign-ins, legacy clients).
    package static let demo = AppRecord(
        clientId: "com.example.demo", publisher: "demo",
        policy: AppPolicy(clientId: "com.example.demo", publisher: "demo"))

    package init(clientId: String, publisher: String, policy: AppPolicy, attestedApps: AttestedApps = AttestedApps()) {
        self.clientId = clientId
        self.publisher = publisher
        self.policy = policy
        self.attestedApps = attestedApps
    }
}

/// An account.
package struct UserRecord: Sendable, Equatable {
    package var id: String
    package var username: String
    package var passwordHash: String
    package var createdAt: Date

    package init(id: String, username: String, passwordHash: String, createdAt: Date) {
        self.id = id
        self.username = username
        self.passwordHash = passwordHash
        self.createdAt = createdAt
    }
}

/// An enrolled device with its two keys and PIN state.
package struct DeviceRecord: Sendable, Equatable {
    package var id: String
    package var userId: String
    package var clientId: String
    package var publisher: String
    package var name: String
    package var model: String
    package var vendorId: String
    package var os: String
    package var fingerprint: String
    package var deviceKey: PublicJWK
    package var deviceKeyThumbprint: String
    package var biometricKey: PublicJWK?
    package var biometricKeyThumbprint: String?
    package var pinHash: String?
    package var pinFailures: Int
    package var pinLockedAt: Date?
    package var createdAt: Date
    package var lastUsedAt: Date?
    package var revokedAt: Date?
    /// Whether the device ever reported being compromised (at enrolment or in an assertion).
    package var compromised: Bool = false
    /// What the device's attestation proved at enrolment; `nil` when it sent none.
    package var attestation: DeviceAttestation?

    package var isActive: Bool { revokedAt == nil }

    /// The registered key a token's `kid` names, and whether it is the biometric key (the device key signs only
    /// together with the PIN); `nil` for any other key, including a biometric key revoked by opt-out.
    package func registeredKey(kid: String) -> (jwk: PublicJWK, isBiometric: Bool)? {
        if let biometricKey, kid == biometricKeyThumbprint { return (biometricKey, true) }
        if kid == deviceKeyThumbprint { return (deviceKey, false) }
        return nil
    }

    package init(
        id: String,
        userId: String,
        clientId: String,
        publisher: String,
        name: String,
        model: String,
        vendorId: String,
        os: String,
        fingerprint: String,
        deviceKey: PublicJWK,
        deviceKeyThumbprint: String,
        biometricKey: PublicJWK? = nil,
        biometricKeyThumbprint: String? = nil,
        pinHash: String? = nil,
        pinFailures: Int,
        pinLockedAt: Date? = nil,
        createdAt: Date,
        lastUsedAt: Date? = nil,
        revokedAt: Date? = nil,
        compromised: Bool = false,
        attestation: DeviceAttestation? = nil
    ) {
        self.id = id
        self.userId = userId
        self.clientId = clientId
        self.publisher = publisher
        self.name = name
        self.model = model
        self.vendorId = vendorId
        self.os = os
        self.fingerprint = fingerprint
        self.deviceKey = deviceKey
        self.deviceKeyThumbprint = deviceKeyThumbprint
        self.biometricKey = biometricKey
        self.biometricKeyThumbprint = biometricKeyThumbprint
        self.pinHash = pinHash
        self.pinFailures = pinFailures
        self.pinLockedAt = pinLockedAt
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.revokedAt = revokedAt
        self.compromised = compromised
        self.attestation = attestation
    }
}

/// The device data of a completed enrolment, kept while the enrolment waits for approval.
package struct PendingDevice: Codable, Sendable, Equatable {
    package var device: DeviceDescription
    package var fingerprint: String
    package var deviceKey: PublicJWK
    package var deviceKeyThumbprint: String
    package var biometricKey: PublicJWK?
    package var biometricKeyThumbprint: String?
    package var pinHash: String?
    package var ip: String
    /// What the device's attestation proved, kept for the device the approval creates.
    package var attestation: DeviceAttestation?

    package init(
        device: DeviceDescription,
        fingerprint: String,
        deviceKey: PublicJWK,
        deviceKeyThumbprint: String,
        biometricKey: PublicJWK? = nil,
        biometricKeyThumbprint: String? = nil,
        pinHash: String? = nil,
        ip: String,
        attestation: DeviceAttestation? = nil
    ) {
        self.device = device
        self.fingerprint = fingerprint
        self.deviceKey = deviceKey
        self.deviceKeyThumbprint = deviceKeyThumbprint
        self.biometricKey = biometricKey
        self.biometricKeyThumbprint = biometricKeyThumbprint
        self.pinHash = pinHash
        self.ip = ip
        self.attestation = attestation
    }
}

/// An enrolment from its password check to its device.
package struct EnrollmentRecord: Sendable, Equatable {
    package enum State: String, Sendable {
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

    package var id: String
    package var userId: String
    package var clientId: String
    package var challenge: String
    package var challengeExpiresAt: Date
    package var state: State
    package var pollSecretHash: String?
    package var pendingExpiresAt: Date?
    package var pendingDevice: PendingDevice?
    package var deviceId: String?
    package var createdAt: Date
    /// The challenge an approving device signs, once the enrolment waits for approval.
    package var approvalChallenge: String?
    /// The number the new device shows, and the three its approver picks among (number matching).
    package var approvalNumber: Int?
    package var approvalNumbers: [Int]?
    /// The digest of the recovery code the enrolment was started with, which its completion spends.
    package var recoveryCodeHash: String?

    package init(
        id: String,
        userId: String,
        clientId: String,
        challenge: String,
        challengeExpiresAt: Date,
        state: State,
        pollSecretHash: String? = nil,
        pendingExpiresAt: Date? = nil,
        pendingDevice: PendingDevice? = nil,
        deviceId: String? = nil,
        createdAt: Date,
        approvalChallenge: String? = nil,
        approvalNumber: Int? = nil,
        approvalNumbers: [Int]? = nil,
        recoveryCodeHash: String? = nil
    ) {
        self.id = id
        self.userId = userId
        self.clientId = clientId
        self.challenge = challenge
        self.challengeExpiresAt = challengeExpiresAt
        self.state = state
        self.pollSecretHash = pollSecretHash
        self.pendingExpiresAt = pendingExpiresAt
        self.pendingDevice = pendingDevice
        self.deviceId = deviceId
        self.createdAt = createdAt
        self.approvalChallenge = approvalChallenge
        self.approvalNumber = approvalNumber
        self.approvalNumbers = approvalNumbers
        self.recoveryCodeHash = recoveryCodeHash
    }
}

/// An inbox item's state: the decision, or `suppressed` for a request that is answered but never delivered.
package enum ItemStatus: String, Sendable {
    case pending, approved, denied, suppressed
}

/// A transaction a relying service asks the user to confirm.
package struct ConfirmationRecord: Sendable, Equatable {
    package var id: String
    package var clientId: String
    package var publisher: String
    /// `nil` when the username is unknown to the key's publisher: never delivered.
    package var userId: String?
    package var text: String
    package var amount: String
    package var currency: String
    package var payee: String
    package var txn: String
    package var challenge: String
    package var createdAt: Date
    package var expiresAt: Date
    package var status: ItemStatus
    package var decidedAt: Date?
    package var deviceId: String?
    package var amr: [String]?

    package init(
        id: String,
        clientId: String,
        publisher: String,
        userId: String? = nil,
        text: String,
        amount: String,
        currency: String,
        payee: String,
        txn: String,
        challenge: String,
        createdAt: Date,
        expiresAt: Date,
        status: ItemStatus,
        decidedAt: Date? = nil,
        deviceId: String? = nil,
        amr: [String]? = nil
    ) {
        self.id = id
        self.clientId = clientId
        self.publisher = publisher
        self.userId = userId
        self.text = text
        self.amount = amount
        self.currency = currency
        self.payee = payee
        self.txn = txn
        self.challenge = challenge
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.status = status
        self.decidedAt = decidedAt
        self.deviceId = deviceId
        self.amr = amr
    }
}

/// A browser's request to log in, approved from an enrolled device by number matching.
package struct WebLoginRecord: Sendable, Equatable {
    package var id: String
    package var userId: String?
    package var clientId: String
    package var publisher: String
    package var number: Int
    package var numbers: [Int]
    package var pollSecretHash: String
    package var challenge: String
    package var browser: String
    package var ip: String
    package var createdAt: Date
    package var expiresAt: Date
    package var status: ItemStatus
    package var decidedAt: Date?
    package var deviceId: String?
    package var amr: [String]?

    package init(
        id: String,
        userId: String? = nil,
        clientId: String,
        publisher: String,
        number: Int,
        numbers: [Int],
        pollSecretHash: String,
        challenge: String,
        browser: String,
        ip: String,
        createdAt: Date,
        expiresAt: Date,
        status: ItemStatus,
        decidedAt: Date? = nil,
        deviceId: String? = nil,
        amr: [String]? = nil
    ) {
        self.id = id
        self.userId = userId
        self.clientId = clientId
        self.publisher = publisher
        self.number = number
        self.numbers = numbers
        self.pollSecretHash = pollSecretHash
        self.challenge = challenge
        self.browser = browser
        self.ip = ip
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.status = status
        self.decidedAt = decidedAt
        self.deviceId = deviceId
        self.amr = amr
    }
}

/// A session: the family of its refresh tokens.
package struct SessionRecord: Sendable, Equatable {
    package var id: String
    package var userId: String
    package var deviceId: String?
    package var clientId: String
    package var amr: [String]
    package var acr: String
    package var authTime: Date
    package var lastActivityAt: Date
    package var createdAt: Date
    package var revokedAt: Date?
    /// The device whose approval made this session (web login), which it does not outlive.
    package var approvedBy: String?
    /// The scope granted to an OpenID Connect client; `nil` for the v1 API's sessions.
    package var scope: String?
    /// The provider session this OpenID Connect session was issued through; it ends with it.
    package var providerSessionId: String?
    /// The address that created the session; `nil` for sessions stored before it was kept.
    package var ip: String?

    package init(
        id: String,
        userId: String,
        deviceId: String? = nil,
        clientId: String,
        amr: [String],
        acr: String,
        authTime: Date,
        lastActivityAt: Date,
        createdAt: Date,
        revokedAt: Date? = nil,
        approvedBy: String? = nil,
        scope: String? = nil,
        providerSessionId: String? = nil,
        ip: String? = nil
    ) {
        self.id = id
        self.userId = userId
        self.deviceId = deviceId
        self.clientId = clientId
        self.amr = amr
        self.acr = acr
        self.authTime = authTime
        self.lastActivityAt = lastActivityAt
        self.createdAt = createdAt
        self.revokedAt = revokedAt
        self.approvedBy = approvedBy
        self.scope = scope
        self.providerSessionId = providerSessionId
        self.ip = ip
    }
}

/// An API key of an app, stored as its SHA-256.
package struct APIKeyRecord: Sendable, Equatable {
    package var id: String
    package var clientId: String
    package var createdAt: Date
    package var revokedAt: Date?

    package init(id: String, clientId: String, createdAt: Date, revokedAt: Date? = nil) {
        self.id = id
        self.clientId = clientId
        self.createdAt = createdAt
        self.revokedAt = revokedAt
    }
}

/// A token-signing key of the server.
package struct ServerKeyRecord: Sendable, Equatable {
    package var kid: String
    /// `ES256` (access tokens, receipts, ES256 ID tokens) or `RS256` (ID tokens by default).
    package var algorithm: String
    /// base64url of the private key: P-256's raw representation, RSA's PKCS #8 DER.
    package var privateKey: String
    package var createdAt: Date
    package var activatesAt: Date
    package var retiredAt: Date?

    package init(
        kid: String, algorithm: String = "ES256", privateKey: String, createdAt: Date, activatesAt: Date,
        retiredAt: Date? = nil
    ) {
        self.kid = kid
        self.algorithm = algorithm
        self.privateKey = privateKey
        self.createdAt = createdAt
        self.activatesAt = activatesAt
        self.retiredAt = retiredAt
    }
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
    /// The request's `X-Request-Id`, as its log lines carry it.
    public var requestId: String?
    /// The request's `User-Agent`.
    public var userAgent: String?
    /// Who acted: `user`, `device`, `api_key` or `admin`.
    public var actor: String?

    package init(
        at: Date,
        event: String,
        outcome: String,
        userId: String? = nil,
        deviceId: String? = nil,
        clientId: String?,
        ip: String?,
        detail: String?,
        requestId: String? = nil,
        userAgent: String? = nil,
        actor: String? = nil
    ) {
        self.at = at
        self.event = event
        self.outcome = outcome
        self.userId = userId
        self.deviceId = deviceId
        self.clientId = clientId
        self.ip = ip
        self.detail = detail
        self.requestId = requestId
        self.userAgent = userAgent
        self.actor = actor
    }
}
