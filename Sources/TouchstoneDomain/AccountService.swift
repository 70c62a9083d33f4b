import Foundation
import TouchstoneProtocol
import TouchstoneStorage

/// Accounts and password checks.
package struct AccountService: Sendable {
    typealias Store = UserStore & RecoveryStore & SessionStore & AppStore

    let store: any Store
    let clock: any WallClock
    let random: any RandomSource
    /// Whether anyone may create an account (`serve --no-self-signup` turns it off).
    let selfSignup: Bool
    let hasher: PasswordHasher
    let metrics: ServerMetrics
    let auditor: Auditor
    let passwords: PasswordCheck
    let sessionIssuer: SessionIssuer

    /// Unicode code points (`unicodeScalars.count`), every one of which counts (see ``PasswordHasher``).
    static let passwordLength = 8...1024

    /// Creates an account; a valid request is admitted by the hashing gate before its password is hashed.
    package func create(_ request: CreateAccountRequest, ip: String) async throws -> CreateAccountResponse {
        guard selfSignup else {
            throw ProblemError(.signupDisabled)
        }
        try Self.checkUsername(request.username)
        guard Self.passwordLength.contains(request.password.unicodeScalars.count) else {
            throw ProblemError(.weakPassword)
        }
        return try await hasher.admitting {
            let user = UserRecord(
                id: random.recordID(), username: request.username,
                passwordHash: try await hasher.hash(request.password), createdAt: clock.now())
            do {
                try await store.createUser(user)
            } catch StoreError.conflict {
                throw ProblemError(.usernameTaken)
            }
            await auditor.record(.accountCreate, outcome: .ok, userId: user.id, ip: ip)
            return CreateAccountResponse(userId: user.id)
        }
    }

    /// `GET /v1/account`.
    package func profile(_ identity: AccessIdentity) async throws -> AccountProfile {
        guard let user = try await store.user(id: identity.userId) else { throw ProblemError.unauthorized }
        return AccountProfile(
            userId: user.id, username: user.username, createdAt: user.createdAt,
            recoveryCodesRemaining: try await store.unusedRecoveryCodeHashes(userId: user.id).count)
    }

    /// `POST /v1/sessions/password`: an `aal1` session without a device. Admitted by the hashing gate first: a
    /// refusal is neither a counted login nor a counted attempt.
    package func passwordSession(_ request: PasswordLoginRequest, ip: String) async throws -> Session {
        try await hasher.admitting {
            try await metrics.countingLogin(.password) { try await openPasswordSession(request, ip: ip) }
        }
    }

    private func openPasswordSession(_ request: PasswordLoginRequest, ip: String) async throws -> Session {
        let app = try await store.existingApp(request.clientId)
        let user = try await passwords.verify(
            username: request.username, password: request.password, clientId: app.clientId, ip: ip,
            event: .passwordLogin)
        let session = sessionIssuer.prepare(
            userId: user.id, device: nil, clientId: app.clientId, amr: [.password], acr: .aal1, ip: ip)
        // A password changed since it was checked ends every session, this one included.
        guard
            try await store.createPasswordSession(
                session.record, refreshTokenHash: session.refreshTokenHash, passwordHash: user.passwordHash)
        else { throw ProblemError.invalidCredentials }
        await auditor.record(.passwordLogin, outcome: .ok, userId: user.id, clientId: app.clientId, ip: ip)
        return try await sessionIssuer.issue(session)
    }

    /// 1–64 code points under ``TextRules``; otherwise 400 `invalid_request`.
    static func checkUsername(_ username: String) throws {
        try TextRules.check(username, field: "username", length: 1...64)
    }

}
