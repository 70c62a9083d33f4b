import Foundation
import TouchstoneProtocol
import TouchstoneStorage

/// Accounts and password checks.
package struct AccountService: Sendable {
    package let environment: ServiceEnvironment

    /// Unicode code points (`unicodeScalars.count`), every one of which counts (see ``PasswordHasher``).
    static let passwordLength = 8...1024

    /// Creates an account; a valid request is admitted by the hashing gate before its password is hashed.
    package func create(_ request: CreateAccountRequest, ip: String) async throws -> CreateAccountResponse {
        guard environment.settings.selfSignup else {
            throw ProblemError(.signupDisabled)
        }
        try Self.checkUsername(request.username)
        guard Self.passwordLength.contains(request.password.unicodeScalars.count) else {
            throw ProblemError(.weakPassword)
        }
        return try await environment.hasher.admitting {
            let user = UserRecord(
                id: RecordID.random(), username: request.username,
                passwordHash: try await environment.hasher.hash(request.password), createdAt: environment.clock.now())
            do {
                try await environment.store.createUser(user)
            } catch StoreError.conflict {
                throw ProblemError(.usernameTaken)
            }
            await environment.auditor.record("account.create", outcome: "ok", userId: user.id, ip: ip)
            return CreateAccountResponse(userId: user.id)
        }
    }

    /// Checks a password with throttling; unknown usernames cost the same bcrypt work as known ones. The hashing slot
    /// is taken before the attempt is counted (callers take it earlier still, before they audit or consume anything).
    /// - Parameter forgiving: whether a right password takes the attempt back from the throttle; `false` when the
    ///   attempt goes on to a recovery code, which must prove right too (``PasswordThrottle/succeeded(username:address:)``).
    /// - Throws: 503 `temporarily_unavailable` when the hashing gate is full (nothing counted), 429
    ///   `too_many_attempts` while throttled, 401 `invalid_credentials` for any wrong pair.
    func verifyPassword(
        username: String, password: String, clientId: String, ip: String, event: String, forgiving: Bool = true
    ) async throws -> UserRecord {
        try await environment.hasher.admitting {
            try await environment.throttle.admit(username: username, address: ip)
            let user = try await environment.store.user(username: username)
            guard Self.passwordLength.contains(password.unicodeScalars.count),
                try await environment.hasher.verify(password, against: user?.passwordHash), let user
            else {
                await environment.auditor.record(
                    event, outcome: "invalid_credentials", userId: user?.id, clientId: clientId, ip: ip)
                throw ProblemError.invalidCredentials
            }
            if forgiving {
                try await environment.throttle.succeeded(username: username, address: ip)
            }
            return user
        }
    }

    /// `GET /v1/account`.
    package func profile(_ identity: AccessIdentity) async throws -> AccountProfile {
        guard let user = try await environment.store.user(id: identity.userId) else { throw ProblemError.unauthorized }
        return AccountProfile(
            userId: user.id, username: user.username, createdAt: user.createdAt,
            recoveryCodesRemaining: try await environment.store.unusedRecoveryCodeHashes(userId: user.id).count)
    }

    /// `POST /v1/sessions/password`: an `aal1` session without a device. Admitted by the hashing gate first: a
    /// refusal is neither a counted login nor a counted attempt.
    package func passwordSession(_ request: PasswordLoginRequest, ip: String) async throws -> Session {
        try await environment.hasher.admitting {
            try await environment.metrics.countingLogin(.password) { try await openPasswordSession(request, ip: ip) }
        }
    }

    private func openPasswordSession(_ request: PasswordLoginRequest, ip: String) async throws -> Session {
        let app = try await environment.app(request.clientId)
        let user = try await verifyPassword(
            username: request.username, password: request.password, clientId: app.clientId, ip: ip,
            event: "login.password")
        let session = try await SessionService(environment: environment).prepare(
            userId: user.id, device: nil, clientId: app.clientId, amr: ["pwd"], acr: "aal1", ip: ip)
        // A password changed since it was checked ends every session, this one included.
        guard
            try await environment.store.createPasswordSession(
                session.record, refreshTokenHash: session.refreshTokenHash, passwordHash: user.passwordHash)
        else { throw ProblemError.invalidCredentials }
        await environment.auditor.record("login.password", outcome: "ok", userId: user.id, clientId: app.clientId, ip: ip)
        return session.wire
    }

    /// 1–64 code points under ``TextRules``; otherwise 400 `invalid_request`.
    static func checkUsername(_ username: String) throws {
        try TextRules.check(username, field: "username", length: 1...64)
    }

    package init(environment: ServiceEnvironment) {
        self.environment = environment
    }
}
