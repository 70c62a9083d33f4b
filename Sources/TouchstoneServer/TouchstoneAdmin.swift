import Foundation
import Logging
import TouchstoneCrypto
import TouchstoneDomain
import TouchstoneProtocol
import TouchstoneStorage

/// What `touchstone admin` does, straight on the database; a running server sees the changes.
public final class TouchstoneAdmin: Sendable {
    private let store: SQLStore
    private let clock: any WallClock
    /// Where OIDC client secrets, API keys and their ids come from.
    private let random: any RandomSource

    private init(store: SQLStore, clock: any WallClock, random: any RandomSource) {
        self.store = store
        self.clock = clock
        self.random = random
    }

    /// Opens and migrates the database for `body`, then closes it; an empty database gets the demo app, as `serve`
    /// would give it.
    /// - Parameter random: where secrets and ids come from; only tests pass another than the system's.
    public static func with<T>(
        database: DatabaseLocation, clock: any WallClock = SystemClock(), random: any RandomSource = SystemRandom(),
        logger: Logger, _ body: (TouchstoneAdmin) async throws -> T
    ) async throws -> T {
        let store = SQLStore(
            provider: try await TouchstoneRuntime.openDatabase(database, bounds: DatabaseBounds(), logger: logger))
        return try await store.provider.withRunning {
            try await store.migrate()
            try await store.createDemoAppIfEmpty(.demo, at: clock.now())
            return try await body(TouchstoneAdmin(store: store, clock: clock, random: random))
        }
    }

    /// Creates or updates an app, and with `client` makes it an OpenID Connect client (or changes its registration).
    /// Everything is checked before anything is stored.
    /// - Parameter attestation: the builds whose hardware key attestations the app accepts (its policy's
    ///   `attestation` says whether one is required).
    /// - Returns: the client's new secret for a confidential client, shown only now.
    /// - Throws: ``ConfigurationError`` for an out-of-range policy value, a registration the provider cannot use, or
    ///   allowed builds that are not well formed.
    @discardableResult
    package func saveApp(
        _ policy: AppPolicy, client: OIDCClientRegistration? = nil,
        attestation: AttestationRegistration = AttestationRegistration()
    ) async throws -> String? {
        guard !policy.clientId.isEmpty, !policy.publisher.isEmpty else {
            throw ConfigurationError("the client id and the publisher must not be empty")
        }
        guard (1...20).contains(policy.maxPinAttempts) else { throw ConfigurationError("--max-pin-attempts takes 1 to 20") }
        guard (30...86_400).contains(policy.inactivityTimeoutSeconds) else {
            throw ConfigurationError("--inactivity-timeout takes 30 to 86400 seconds")
        }
        guard (30...86_400).contains(policy.privilegedWindowSeconds) else {
            throw ConfigurationError("--privileged-window takes 30 to 86400 seconds")
        }
        guard policy.biometricAllowed || policy.pinRequired else {
            throw ConfigurationError("an app needs biometrics or a PIN; --no-biometrics and --no-pin cannot go together")
        }
        if let client, !client.confidential, try await store.oidcClient(clientId: client.clientId)?.secretHash != nil {
            throw ConfigurationError(
                "\(client.clientId) is a confidential client: give --client-secret (it makes a new secret) to change it")
        }
        if let client, client.keys == nil, try await store.oidcClient(clientId: client.clientId)?.jwks != nil {
            throw ConfigurationError("\(client.clientId) authenticates with its keys: give --jwks FILE to change it")
        }
        let registration = try client.map { try $0.record(random: random) }
        let cibaClient = try client.flatMap { client in
            try client.ciba.map {
                try $0.record(clientId: client.clientId, confidential: client.confidential || client.keys != nil)
            }
        }
        let attestedApps = try attestation.record(requirement: policy.attestation)
        try await store.saveApp(
            AppRecord(clientId: policy.clientId, publisher: policy.publisher, policy: policy, attestedApps: attestedApps),
            at: clock.now())
        await audit(.adminAppSave, clientId: policy.clientId)
        guard let (record, secret) = registration else { return nil }
        try await store.saveOIDCClient(record)
        await audit(.adminOIDCClientSave, clientId: policy.clientId)
        if let cibaClient { try await store.saveCIBAClient(cibaClient) }
        return secret
    }

    /// Replaces an OIDC client's JWK Set (``ClientKeySet``, already checked).
    /// - Throws: ``ConfigurationError`` when no OIDC client has this id.
    package func setClientKeys(_ keys: ClientKeySet, clientId: String) async throws {
        guard try await store.setClientJWKS(clientId: clientId, jwks: try keys.stored) else {
            throw ConfigurationError("no OpenID Connect client \(clientId)")
        }
        await audit(.adminOIDCClientSave, clientId: clientId)
    }

    public func apps() async throws -> [AppPolicy] {
        try await store.apps().map(\.policy)
    }

    /// Sets up, replaces or removes the app's push credentials; a provider the input leaves alone keeps its settings.
    /// Everything is checked before anything is stored.
    /// - Throws: ``ConfigurationError`` for input ``PushCredentialsInput/changes()`` refuses, or an unknown app.
    package func setPushCredentials(_ input: PushCredentialsInput, clientId: String) async throws {
        let changes = try input.changes()
        guard
            try await store.updatePushCredentials(
                clientId: clientId, apns: changes.apns, fcm: changes.fcm, at: clock.now())
        else { throw ConfigurationError("no app \(clientId)") }
        await audit(.adminAppPush, clientId: clientId)
    }

    /// Which push providers the app is set up for, without their keys.
    public func pushSetup(clientId: String) async throws -> PushSetupView {
        let credentials = try await store.pushCredentials(clientId: clientId)
        return PushSetupView(
            apns: credentials.apns.map { PushSetupView.APNs(keyId: $0.keyId, teamId: $0.teamId, topics: $0.topics) },
            fcm: credentials.fcm.map { PushSetupView.FCM(projectId: $0.projectId, clientEmail: $0.clientEmail) })
    }

    /// Creates an API key for an app and returns it; only its SHA-256 is stored.
    public func createAPIKey(clientId: String) async throws -> (id: String, key: String) {
        guard try await store.app(clientId: clientId) != nil else { throw ConfigurationError("no app \(clientId)") }
        let id = random.recordID()
        let key = "tsk_" + random.token()
        try await store.createAPIKey(
            APIKeyRecord(id: id, clientId: clientId, createdAt: clock.now(), revokedAt: nil), hash: SecretDigest.sha256(key))
        await audit(.adminAPIKeyCreate, clientId: clientId, detail: id)
        return (id, key)
    }

    public func apiKeys() async throws -> [APIKeyView] {
        try await store.apiKeys().map {
            APIKeyView(id: $0.id, clientId: $0.clientId, createdAt: $0.createdAt, revokedAt: $0.revokedAt)
        }
    }

    /// - Throws: ``ConfigurationError`` when there is no such unrevoked key.
    public func revokeAPIKey(id: String) async throws {
        guard try await store.revokeAPIKey(id: id, at: clock.now()) else {
            throw ConfigurationError("no unrevoked API key \(id)")
        }
        await audit(.adminAPIKeyRevoke, detail: id)
    }

    public func users() async throws -> [UserView] {
        try await store.users().map { UserView(userId: $0.id, username: $0.username, createdAt: $0.createdAt) }
    }

    /// Devices, of one user or of everyone.
    public func devices(username: String?) async throws -> [DeviceView] {
        let users = try await store.users()
        let names = Dictionary(uniqueKeysWithValues: users.map { ($0.id, $0.username) })
        let devices: [DeviceRecord]
        if let username {
            guard let user = users.first(where: { $0.username == username }) else {
                throw ConfigurationError("no user \(username)")
            }
            devices = try await store.devices(userId: user.id)
        } else {
            devices = try await store.allDevices()
        }
        return devices.map { device in
            DeviceView(
                deviceId: device.id, username: names[device.userId] ?? device.userId, clientId: device.clientId,
                publisher: device.publisher, name: device.name, model: device.model, biometric: device.biometricKey != nil,
                pinLocked: device.pinLockedAt != nil, createdAt: device.createdAt, lastUsedAt: device.lastUsedAt,
                revokedAt: device.revokedAt, attestation: device.attestation?.kind)
        }
    }

    /// Revokes a device and ends its sessions and those it approved; the user's other devices get a notice.
    public func revoke(deviceId: String) async throws {
        let now = clock.now()
        guard let device = try await store.device(id: deviceId),
            try await store.revokeDevice(
                id: deviceId, reason: "revoked by administrator", at: now,
                notices: [
                    SecurityNotices.draft(
                        .deviceRemoved, userId: device.userId, device: device, actingDevice: nil, ip: nil, at: now)
                ])
        else {
            throw ConfigurationError("no active device \(deviceId)")
        }
        await audit(.deviceRevoke, userId: device.userId, deviceId: deviceId, detail: "by administrator")
    }

    /// Resets a user for a helpdesk that has checked their identity out of band: revokes every device and passkey,
    /// ends every session (provider sessions included) and unfinished enrolment, and spends every recovery code. The
    /// password then enrols a new device as the user's first.
    /// - Throws: ``ConfigurationError`` for an unknown username.
    public func resetUser(username: String) async throws {
        guard let user = try await store.user(username: username) else { throw ConfigurationError("no user \(username)") }
        try await store.resetUser(userId: user.id, at: clock.now())
        await audit(.adminUserReset, userId: user.id, detail: username)
    }

    public func auditEvents(since: Date?, username: String?) async throws -> [AuditEvent] {
        var userId: String?
        if let username {
            guard let user = try await store.user(username: username) else { throw ConfigurationError("no user \(username)") }
            userId = user.id
        }
        return try await store.auditEvents(since: since, userId: userId)
    }

    /// Publishes a new signing key now; servers sign with it ten minutes later.
    public func rotateSigningKey() async throws -> (kid: String, activatesAt: Date) {
        let key = try await TokenSigner.rotate(store: store, now: clock.now())
        await audit(.adminSigningKeyRotate, detail: key.kid)
        return (key.kid, key.activatesAt)
    }

    private func audit(
        _ event: AuditEventType, userId: String? = nil, deviceId: String? = nil, clientId: String? = nil,
        detail: String? = nil
    ) async {
        try? await store.audit(
            AuditEvent(
                at: clock.now(), event: event, outcome: .ok, userId: userId, deviceId: deviceId, clientId: clientId,
                ip: "admin", detail: detail, actor: .admin))
    }
}

public struct APIKeyView: Sendable, Codable, Equatable {
    public var id: String
    public var clientId: String
    public var createdAt: Date
    public var revokedAt: Date?
}

/// An app's push providers as `admin app list` shows them: ids and topics, never a key.
public struct PushSetupView: Sendable, Codable, Equatable {
    public struct APNs: Sendable, Codable, Equatable {
        public var keyId: String
        public var teamId: String
        public var topics: [String]
    }

    public struct FCM: Sendable, Codable, Equatable {
        public var projectId: String
        public var clientEmail: String
    }

    public var apns: APNs?
    public var fcm: FCM?
}

public struct UserView: Sendable, Codable, Equatable {
    public var userId: String
    public var username: String
    public var createdAt: Date
}

public struct DeviceView: Sendable, Codable, Equatable {
    public var deviceId: String
    public var username: String
    public var clientId: String
    public var publisher: String
    public var name: String
    public var model: String
    public var biometric: Bool
    public var pinLocked: Bool
    public var createdAt: Date
    public var lastUsedAt: Date?
    public var revokedAt: Date?
    /// What the device's attestation proved at enrolment; null in JSON when it sent none.
    public var attestation: DeviceAttestationKind?

    private enum CodingKeys: String, CodingKey {
        case deviceId, username, clientId, publisher, name, model, biometric, pinLocked, createdAt, lastUsedAt
        case revokedAt, attestation
    }

    /// Every member, `attestation` as null when there is none.
    public func encode(to encoder: any Encoder) throws {
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
