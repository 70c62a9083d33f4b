import TouchstoneStorage

/// The one password check, with throttling: for password sessions, step-up, enrolment and the legacy key
/// registration.
struct PasswordCheck: Sendable {
    let users: any UserStore
    let hasher: PasswordHasher
    let throttle: PasswordThrottle
    let auditor: Auditor

    /// Checks a password with throttling; unknown usernames cost the same bcrypt work as known ones. The hashing slot
    /// is taken before the attempt is counted (callers take it earlier still, before they audit or consume anything).
    /// - Parameter forgiving: whether a right password takes the attempt back from the throttle; `false` when the
    ///   attempt goes on to a recovery code, which must prove right too (``PasswordThrottle/succeeded(username:address:)``).
    /// - Throws: 503 `temporarily_unavailable` when the hashing gate is full (nothing counted), 429
    ///   `too_many_attempts` while throttled, 401 `invalid_credentials` for any wrong pair.
    func verify(
        username: String, password: String, clientId: String, ip: String, event: AuditEventType, forgiving: Bool = true
    ) async throws -> UserRecord {
        try await hasher.admitting {
            try await throttle.admit(username: username, address: ip)
            let user = try await users.user(username: username)
            guard AccountService.passwordLength.contains(password.unicodeScalars.count),
                try await hasher.verify(password, against: user?.passwordHash), let user
            else {
                await auditor.record(
                    event, outcome: .refused(.invalidCredentials), userId: user?.id, clientId: clientId, ip: ip)
                throw ProblemError.invalidCredentials
            }
            if forgiving {
                try await throttle.succeeded(username: username, address: ip)
            }
            return user
        }
    }
}
