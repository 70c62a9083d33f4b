import Foundation
import TouchstoneProtocol

/// Everything the server persists. Every method is atomic on its own: conditional statements or one
/// transaction, never a read followed by a write in Swift.
protocol TouchstoneStore: Sendable {
    // MARK: Apps and API keys
    func app(clientId: String) async throws -> AppRecord?
    func apps() async throws -> [AppRecord]
    /// Inserts an app, or replaces its publisher and policy.
    func saveApp(_ app: AppRecord, at now: Date) async throws
    /// Creates the `demo` publisher's `com.example.demo` app when there is no app at all.
    func createDemoAppIfEmpty(_ app: AppRecord, at now: Date) async throws
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
    /// Stores a started enrolment if the user's password hash is still `passwordHash`; `false` when it changed.
    func createEnrollment(_ enrollment: EnrollmentRecord, passwordHash: String) async throws -> Bool
    func enrollment(id: String) async throws -> EnrollmentRecord?
    /// Moves a `started` enrolment whose challenge is still valid to `completed` or `pending`; `false` if it was
    /// not in that state (used, unknown or expired).
    func consumeEnrollmentChallenge(id: String, now: Date) async throws -> Bool
    /// In one transaction: parks a consumed enrolment until another device approves it, unless the user is over
    /// `limits` (then the enrolment is cancelled and `false` returned; nothing reaches any device).
    func parkEnrollment(_ request: ApprovalRequest, limits: ApprovalLimits) async throws -> Bool
    /// In one transaction, if the enrolment is still consumed (a password change cancels it): records the device on
    /// it, revokes `previous` (the device it replaces, by proof), inserts the device, the session and its first
    /// refresh token. `false` (nothing written) when the enrolment was cancelled.
    func completeEnrollment(
        id: String, device: DeviceRecord, replacing previous: String?, session: SessionRecord, refreshTokenHash: String
    ) async throws -> Bool

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

    // MARK: Challenges and used tokens
    func createChallenge(_ challenge: String, subject: String, purpose: String, expiresAt: Date) async throws
    /// Deletes the challenge if it exists, is bound to this subject and purpose, and has not expired.
    func consumeChallenge(_ challenge: String, subject: String, purpose: String, now: Date) async throws -> Bool
    /// Whether the challenge exists, bound to this subject and purpose, unexpired (a hint: only consuming it counts).
    func challengeIsLive(_ challenge: String, subject: String, purpose: String, now: Date) async throws -> Bool
    /// Records a verified token's digest; `false` when it was recorded before (a replay).
    func recordUsedToken(digest: String, expiresAt: Date) async throws -> Bool
    /// In one transaction: consumes a verified login assertion's challenge (which spends the assertion) and applies
    /// the login's effect (see ``LoginCommit``), stopping at the first step that refuses; the steps before it stay written.
    func commitLogin(_ login: LoginCommit) async throws -> LoginCommit.Outcome

    // MARK: Sessions
    func createSession(_ session: SessionRecord, refreshTokenHash: String) async throws
    /// Stores a session made with the password if the user's password hash is still `passwordHash`; `false` when it
    /// changed meanwhile (a change and this insert exclude each other).
    func createPasswordSession(_ session: SessionRecord, refreshTokenHash: String, passwordHash: String) async throws
        -> Bool
    func session(id: String) async throws -> SessionRecord?
    /// The session a refresh token belongs to, and whether the token was already rotated.
    func refreshToken(hash: String) async throws -> (session: SessionRecord, rotated: Bool)?
    /// In one transaction: marks `hash` rotated, stores `newHash` for the same live session and records the
    /// activity. When `hash` was already rotated (a reuse, even a concurrent one), revokes the session instead.
    /// - Returns: `false` when the token was not rotated by this call.
    func rotateRefreshToken(hash: String, newHash: String, sessionId: String, at: Date) async throws -> Bool
    func revokeSession(id: String, reason: String, at: Date) async throws

    // MARK: Password throttling
    /// In one transaction: unless a counter is blocked at `at`, counts one attempt on each (after its decay) and blocks
    /// it until the time its delay gives for the new count.
    /// - Returns: `nil` when counted; otherwise when the blocking counter frees up (nothing counted).
    func countAttempt(_ counters: [ThrottleCounter], at: Date) async throws -> Date?
    /// After a right password: deletes the counter `cleared` and takes one attempt off `forgiven`.
    func forgiveAttempt(clearing cleared: String, forgiving forgiven: String) async throws

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
    /// Enrolments of this user waiting for approval.
    func pendingEnrollments(userId: String, now: Date) async throws -> [EnrollmentRecord]
    /// In one transaction: the decider's steps (``DecisionCommit``), then the decision on a pending enrolment; an
    /// approval inserts `device`.
    func decideEnrollment(id: String, approvedDevice device: DeviceRecord?, by commit: DecisionCommit) async throws
        -> DecisionCommit.Outcome
    /// In one transaction: stores an approved enrolment's first session (its `deviceId` the enrolment's device), for
    /// the first caller only and only while the device is active.
    func deliverEnrollment(id: String, session: SessionRecord, refreshTokenHash: String) async throws -> Bool

    // MARK: Confirmations
    func createConfirmation(_ confirmation: ConfirmationRecord) async throws
    func confirmation(id: String) async throws -> ConfirmationRecord?
    func pendingConfirmations(userId: String, publisher: String, now: Date) async throws -> [ConfirmationRecord]
    /// In one transaction: the decider's steps (``DecisionCommit``), then the decision on a pending, unexpired
    /// confirmation, keeping only the digest of the device's decision token.
    func decideConfirmation(
        id: String, status: ItemStatus, amr: [String], decisionDigest: String, by commit: DecisionCommit
    ) async throws -> DecisionCommit.Outcome

    // MARK: Web logins
    /// In one transaction: stores a web login, suppressed (answered but never delivered) when the user already has
    /// one pending, is over `limits`' count in their window, or denied one within their cool-down.
    /// - Returns: the stored status.
    func createWebLogin(_ webLogin: WebLoginRecord, limits: ApprovalLimits) async throws -> ItemStatus
    func webLogin(id: String) async throws -> WebLoginRecord?
    func pendingWebLogins(userId: String, publisher: String, now: Date) async throws -> [WebLoginRecord]
    /// In one transaction: the decider's steps (``DecisionCommit``), then the decision on a pending, unexpired web login.
    func decideWebLogin(id: String, status: ItemStatus, amr: [String], by commit: DecisionCommit) async throws
        -> DecisionCommit.Outcome
    /// In one transaction: stores an approved web login's session (`approvedBy` its approving device), for the first
    /// caller only and only while that device is active.
    func deliverWebLogin(id: String, session: SessionRecord, refreshTokenHash: String) async throws -> WebLoginDelivery

    // MARK: Legacy TouchIDAuth keys
    /// Stores a key if the user's password hash is still `passwordHash`; `false` when it changed.
    /// - Throws: ``StoreError/conflict`` when a key with this `sub` exists.
    func createLegacyKey(sub: String, userId: String, publicKey: String, at: Date, passwordHash: String) async throws
        -> Bool
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

/// Store failures the domain maps to protocol errors.
enum StoreError: Error, Equatable {
    case conflict
}
