import Foundation
import TouchstoneProtocol

/// Everything the server persists. Every method is atomic on its own: conditional statements or one
/// transaction, never a read followed by a write in Swift.
protocol TouchstoneStore: Sendable {
    // MARK: Apps and API keys
    func app(clientId: String) async throws -> AppRecord?
    func apps() async throws -> [AppRecord]
    /// Inserts an app, or replaces its publisher and policy.
    func saveApp(_ app: AppRecord) async throws
    /// Creates the `demo` publisher's `com.example.demo` app when there is no app at all.
    func createDemoAppIfEmpty(_ app: AppRecord) async throws
    func createAPIKey(_ key: APIKeyRecord, hash: String) async throws
    /// The app of an unrevoked key with this SHA-256.
    func apiKeyClientId(hash: String) async throws -> String?
    func apiKeys() async throws -> [APIKeyRecord]
    /// `false` when there is no such unrevoked key.
    func revokeAPIKey(id: String, at: Date) async throws -> Bool

    // MARK: Users
    /// - Throws: ``StoreError/conflict`` when the username is taken.
    func createUser(_ user: UserRecord) async throws
    func user(username: String) async throws -> UserRecord?
    func user(id: String) async throws -> UserRecord?
    func users() async throws -> [UserRecord]

    // MARK: Enrolments
    func createEnrollment(_ enrollment: EnrollmentRecord) async throws
    func enrollment(id: String) async throws -> EnrollmentRecord?
    /// Moves a `started` enrolment whose challenge is still valid to `completed` or `pending`; `false` if it was
    /// not in that state (used, unknown or expired).
    func consumeEnrollmentChallenge(id: String, now: Date) async throws -> Bool
    /// Parks a consumed enrolment until another device approves it.
    func parkEnrollment(
        id: String, device: PendingDevice, pollSecretHash: String, approvalChallenge: String, expiresAt: Date
    ) async throws
    /// In one transaction: revokes the user's active devices with the same fingerprint, inserts the device,
    /// the session and its first refresh token, and records the device on the enrolment.
    func completeEnrollment(id: String, device: DeviceRecord, session: SessionRecord, refreshTokenHash: String)
        async throws

    // MARK: Devices
    /// ⚠️ In one transaction, inserts users and their devices as completed enrolments leave them, without any of the
    /// checks of an enrolment. Only for ``TouchstoneRuntime/insecureEnrollForBenchmark(_:clientId:pin:)``.
    func insertEnrolledDevices(users: [UserRecord], devices: [DeviceRecord]) async throws
    func device(id: String) async throws -> DeviceRecord?
    func devices(userId: String) async throws -> [DeviceRecord]
    func allDevices() async throws -> [DeviceRecord]
    /// Revokes an active device and ends its sessions; `false` when it was not active.
    func revokeDevice(id: String, reason: String, at: Date) async throws -> Bool
    /// Deletes an active device's biometric key; `false` when the device is not active.
    func removeBiometricKey(deviceId: String) async throws -> Bool
    /// Counts one wrong PIN unless the PIN is locked; locks it when the count reaches `limit`.
    /// - Returns: the count after this failure, or `nil` when the PIN was already locked (nothing counted).
    func countWrongPIN(deviceId: String, limit: Int, at: Date) async throws -> PINCount?
    /// Resets the count after a right PIN; `false` when the PIN is locked.
    func resetPINFailures(deviceId: String) async throws -> Bool
    func touchDevice(id: String, at: Date) async throws

    // MARK: Challenges and used tokens
    func createChallenge(_ challenge: String, subject: String, purpose: String, expiresAt: Date) async throws
    /// Deletes the challenge if it exists, is bound to this subject and purpose, and has not expired.
    func consumeChallenge(_ challenge: String, subject: String, purpose: String, now: Date) async throws -> Bool
    /// Records a verified token's digest; `false` when it was recorded before (a replay).
    func recordUsedToken(digest: String, expiresAt: Date) async throws -> Bool
    /// In one transaction: consumes a verified login assertion's challenge (which spends the assertion) and applies
    /// the login's effect (see ``LoginCommit``), stopping at the first step that refuses; the steps before it stay written.
    func commitLogin(_ login: LoginCommit) async throws -> LoginCommit.Outcome

    // MARK: Sessions
    func createSession(_ session: SessionRecord, refreshTokenHash: String) async throws
    func session(id: String) async throws -> SessionRecord?
    /// The session a refresh token belongs to, and whether the token was already rotated.
    func refreshToken(hash: String) async throws -> (session: SessionRecord, rotated: Bool)?
    /// In one transaction: marks `hash` rotated, stores `newHash` for the same live session and records the
    /// activity. When `hash` was already rotated (a reuse, even a concurrent one), revokes the session instead.
    /// - Returns: `false` when the token was not rotated by this call.
    func rotateRefreshToken(hash: String, newHash: String, sessionId: String, at: Date) async throws -> Bool
    func revokeSession(id: String, reason: String, at: Date) async throws

    // MARK: Password throttling
    /// The latest `blocked_until` of these throttle keys.
    func throttledUntil(keys: [String]) async throws -> Date?
    /// Counts a failure for a key and blocks it until the time `delay` gives for the new count.
    func countFailure(key: String, at: Date, delay: @escaping @Sendable (Int) -> TimeInterval) async throws
    func clearFailures(key: String) async throws

    // MARK: Signing keys
    func serverKeys() async throws -> [ServerKeyRecord]
    /// Inserts the first key when there is none.
    func createFirstServerKey(_ key: ServerKeyRecord) async throws
    /// Inserts `next` and retires the keys active now at `next.activatesAt`.
    func rotateServerKey(next: ServerKeyRecord) async throws

    // MARK: Step-up
    /// Sets an active device's PIN hash, resets its count and unlocks it; `false` when the device is not active.
    func setPIN(deviceId: String, pinHash: String) async throws -> Bool
    /// In one transaction: sets the user's password hash and ends every other session of the user.
    func setPassword(userId: String, passwordHash: String, keepingSession sessionId: String, at: Date) async throws

    // MARK: Approval of new devices
    /// Enrolments of this user waiting for approval whose device fingerprint is not `fingerprint`.
    func pendingEnrollments(userId: String, excludingFingerprint fingerprint: String, now: Date) async throws
        -> [EnrollmentRecord]
    /// Records a decision on a pending enrolment; an approval creates `device` (replacing the user's devices with its
    /// fingerprint) in the same transaction. `false` when it was no longer pending.
    func decideEnrollment(id: String, approvedDevice device: DeviceRecord?, decidedBy: String, now: Date) async throws
        -> Bool
    /// Marks an approved enrolment's session as delivered; `true` for the first caller only.
    func claimEnrollmentDelivery(id: String) async throws -> Bool

    // MARK: Confirmations
    func createConfirmation(_ confirmation: ConfirmationRecord) async throws
    func confirmation(id: String) async throws -> ConfirmationRecord?
    func pendingConfirmations(userId: String, publisher: String, now: Date) async throws -> [ConfirmationRecord]
    /// Records a decision on a pending, unexpired confirmation; `false` when it was not.
    func decideConfirmation(
        id: String, status: ItemStatus, deviceId: String, amr: [String], decision: String, now: Date
    ) async throws -> Bool

    // MARK: Web logins
    /// In one transaction: stores a web login, suppressed (answered but never delivered) when the user already has
    /// one pending, had `hourlyLimit` in the last hour, or denied one since `coolDownSince`.
    /// - Returns: the stored status.
    func createWebLogin(_ webLogin: WebLoginRecord, hourlyLimit: Int, coolDownSince: Date) async throws -> ItemStatus
    func webLogin(id: String) async throws -> WebLoginRecord?
    func pendingWebLogins(userId: String, publisher: String, now: Date) async throws -> [WebLoginRecord]
    /// Records a decision on a pending, unexpired web login; `false` when it was not.
    func decideWebLogin(id: String, status: ItemStatus, deviceId: String, amr: [String], now: Date) async throws -> Bool
    /// Marks an approved web login's session as delivered; `true` for the first caller only.
    func claimWebLoginDelivery(id: String) async throws -> Bool

    // MARK: Legacy TouchIDAuth keys
    /// - Throws: ``StoreError/conflict`` when a key with this `sub` exists.
    func createLegacyKey(sub: String, userId: String, publicKey: String, at: Date) async throws
    /// The user and public key (PKCS#1 DER, base64url) registered under `sub`.
    func legacyKey(sub: String) async throws -> (userId: String, publicKey: String)?

    // MARK: Passkeys
    func createCeremony(_ ceremony: CeremonyRecord) async throws
    /// Deletes and returns an unexpired ceremony of this kind started by `sessionId` (`nil`: by no session).
    func consumeCeremony(id: String, kind: CeremonyRecord.Kind, sessionId: String?, now: Date) async throws
        -> CeremonyRecord?
    func passkeys(userId: String) async throws -> [PasskeyRecord]
    /// The account with this username and its passkeys; `nil` for an unknown username.
    func passkeyAccount(username: String) async throws -> (userId: String, passkeys: [PasskeyRecord])?
    func passkey(credentialId: String) async throws -> PasskeyRecord?
    /// Whether the user has an active device or a passkey.
    func hasCredentials(userId: String) async throws -> Bool
    /// Stores a new passkey; with `firstCredentialOnly`, only while the user has no active device and no passkey
    /// (checked under a lock on the user's row).
    func createPasskey(_ passkey: PasskeyRecord, firstCredentialOnly: Bool) async throws -> PasskeyInsertion
    /// In one transaction: stores the credential's new counter and backup state, if its stored counter is still
    /// `previousSignCount`, and inserts the session. `false` (nothing stored) when the counter moved meanwhile or
    /// the passkey was removed.
    func acceptPasskeyAuthentication(
        _ passkey: PasskeyRecord, previousSignCount: UInt32, session: SessionRecord, refreshTokenHash: String
    ) async throws -> Bool
    /// `false` when the user has no such passkey.
    func deletePasskey(credentialId: String, userId: String) async throws -> Bool
    /// The server-wide secret `name`, created from `candidate` by the first caller.
    func serverSecret(name: String, creating candidate: String) async throws -> String

    // MARK: Audit and housekeeping
    func audit(_ event: AuditEvent) async throws
    func auditEvents(since: Date?, userId: String?) async throws -> [AuditEvent]
    /// Deletes expired challenges, used-token digests, WebAuthn ceremonies and stale throttle rows.
    func purgeExpired(now: Date) async throws
}

/// A PIN failure count after one more wrong PIN.
struct PINCount: Sendable, Equatable {
    var failures: Int
    var locked: Bool
}

/// Store failures the domain maps to protocol errors.
enum StoreError: Error, Equatable {
    case conflict
}
