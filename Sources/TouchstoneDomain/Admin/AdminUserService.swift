import Foundation
import TouchstoneProtocol
import TouchstoneStorage

/// Users, their devices and sessions, for administrators: looking them up, resetting a user, revoking a device and
/// ending a session, each with the notices the user's own action would leave.
package struct AdminUserService: Sendable {
    typealias Store = UserStore & UserDirectoryStore & DeviceStore & PasskeyStore & RecoveryStore & SessionStore
        & AppStore & AuditStore

    let store: any Store
    let clock: any WallClock
    let audit: AdminAudit
    let revocation: DeviceRevocation

    /// What a user cursor pages.
    private static let cursorKind = "users"

    /// A page of users by username: the one named `username`, those whose username starts with `prefix`, or all.
    /// - Parameters:
    ///   - limit: 1 to 100; 50 when `nil`.
    ///   - cursor: the `next` of the page before.
    /// - Throws: `invalid_request` for both `username` and `prefix`, a limit out of range, or a cursor this server did
    ///   not give.
    package func users(username: String?, prefix: String?, limit: Int?, cursor: String?) async throws
        -> AdminPage<AdminUser>
    {
        let match: UserMatch
        switch (username, prefix) {
        case (let username?, nil): match = .username(username)
        case (nil, let prefix?): match = .prefix(prefix)
        case (nil, nil): match = .all
        case (_?, _?): throw ProblemError.invalidRequest("give username or prefix, not both")
        }
        let size = try PageCursor.pageSize(limit)
        let after = try PageCursor.decode(cursor, kind: Self.cursorKind, count: 1)?.first
        let rows = try await store.users(match, after: after, limit: size + 1)
        let page = try PageCursor.page(rows, size: size) { try PageCursor.encode(Self.cursorKind, [$0.username]) }
        return AdminPage(items: page.rows.map(Self.view), next: page.next)
    }

    /// Every user by username (`admin users`).
    package func allUsers() async throws -> [AdminUser] {
        try await store.users().map(Self.view)
    }

    /// One user, with every device, passkey and the number of unused recovery codes.
    /// - Throws: `not_found`.
    package func user(_ userId: String) async throws -> AdminUserDetail {
        let user = try await existingUser(userId)
        return AdminUserDetail(
            userId: user.id, username: user.username, createdAt: user.createdAt,
            devices: try await store.devices(userId: userId).map { device in
                AdminUserDetail.Device(
                    deviceId: device.id, clientId: device.clientId, name: device.name, model: device.model,
                    createdAt: device.createdAt, lastUsedAt: device.lastUsedAt, biometric: device.biometricKey != nil,
                    attestation: device.attestation?.kind, pinLocked: device.pinLockedAt != nil, active: device.isActive)
            },
            passkeys: try await store.passkeys(userId: userId).map {
                AdminUserDetail.Passkey(credentialId: $0.credentialId, name: $0.name, createdAt: $0.createdAt)
            },
            recoveryCodesRemaining: try await store.unusedRecoveryCodeHashes(userId: userId).count)
    }

    /// Devices, of the user named `username` or of everyone (`admin devices`).
    /// - Throws: `not_found` for an unknown username.
    package func devices(username: String?) async throws -> [DeviceView] {
        let users = try await store.users()
        let names = Dictionary(uniqueKeysWithValues: users.map { ($0.id, $0.username) })
        let devices: [DeviceRecord]
        if let username {
            guard let user = users.first(where: { $0.username == username }) else { throw Self.noUser(username) }
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

    /// Resets a user for a helpdesk that has checked their identity out of band: revokes every device and passkey,
    /// ends every session (provider sessions included) and unfinished enrolment, and spends every recovery code. The
    /// password then enrols a new device as the user's first.
    /// - Throws: `not_found`.
    package func reset(_ userId: String, by caller: AdminCaller) async throws {
        try caller.require(.write)
        try await reset(try await existingUser(userId), by: caller)
    }

    /// ``reset(_:by:)`` by username (`admin user reset`).
    /// - Throws: `not_found` for an unknown username.
    package func reset(username: String, by caller: AdminCaller) async throws {
        try caller.require(.write)
        guard let user = try await store.user(username: username) else { throw Self.noUser(username) }
        try await reset(user, by: caller)
    }

    private func reset(_ user: UserRecord, by caller: AdminCaller) async throws {
        try await store.resetUser(userId: user.id, at: clock.now())
        try await audit.record(.adminUserReset, by: caller, userId: user.id, detail: user.username)
    }

    /// Revokes one of the user's devices as the user's own removal does (``DeviceRevocation``): its sessions and
    /// those it approved end, and the user's other devices get a `device_removed` notice.
    /// - Throws: `not_found` for an unknown user, or a device that is not the user's or not active.
    package func revokeDevice(_ deviceId: String, of userId: String, by caller: AdminCaller) async throws {
        try caller.require(.write)
        _ = try await existingUser(userId)
        guard let device = try await store.device(id: deviceId), device.userId == userId else {
            throw Self.noActiveDevice(deviceId)
        }
        try await revoke(device, by: caller)
    }

    /// Revokes any user's device (`admin revoke`), as ``revokeDevice(_:of:by:)`` does.
    /// - Throws: `not_found` for a device that is unknown or not active.
    package func revokeDevice(_ deviceId: String, by caller: AdminCaller) async throws {
        try caller.require(.write)
        guard let device = try await store.device(id: deviceId) else { throw Self.noActiveDevice(deviceId) }
        try await revoke(device, by: caller)
    }

    private func revoke(_ device: DeviceRecord, by caller: AdminCaller) async throws {
        guard try await revocation.revoke(device, reason: "revoked by administrator", actingDevice: nil, ip: nil) else {
            throw Self.noActiveDevice(device.id)
        }
        try await audit.record(
            .deviceRevoke, by: caller, userId: device.userId, deviceId: device.id, detail: "by administrator")
    }

    /// The user's live sessions (not ended, within their app's maximum lifetime and inactivity timeout), oldest
    /// first, in the shape of the user's own list (`GET /v1/sessions`; `current` is false: none is the caller's).
    /// - Throws: `not_found`.
    package func sessions(of userId: String) async throws -> SessionList {
        _ = try await existingUser(userId)
        return try await SessionService.liveSessions(of: userId, current: nil, store: store, at: clock.now())
    }

    /// Ends one of the user's sessions (and the provider session it was issued through), leaving the user's devices a
    /// `sessions_ended` notice as a session ended by another one does.
    /// - Throws: `not_found` for an unknown user, or a session that is not the user's or already ended.
    package func endSession(_ sessionId: String, of userId: String, by caller: AdminCaller) async throws {
        try caller.require(.write)
        _ = try await existingUser(userId)
        let notFound = ProblemError(.notFound, detail: "No such session.")
        guard let session = try await store.session(id: sessionId), session.userId == userId, session.revokedAt == nil
        else { throw notFound }
        let now = clock.now()
        var device: DeviceRecord?
        if let deviceId = session.deviceId { device = try await store.device(id: deviceId) }
        let notice = SecurityNotices.draft(
            .sessionsEnded, userId: userId, device: device, actingDevice: nil, ip: nil, at: now)
        guard
            try await store.endSession(
                id: session.id, userId: userId, reason: "ended by administrator", at: now, notice: notice)
        else { throw notFound }
        try await audit.record(
            .sessionEnd, by: caller, userId: userId, deviceId: session.deviceId, clientId: session.clientId,
            detail: "by administrator")
    }

    /// - Throws: `not_found`.
    private func existingUser(_ userId: String) async throws -> UserRecord {
        guard let user = try await store.user(id: userId) else {
            throw ProblemError(.notFound, detail: "No user has this id.")
        }
        return user
    }

    private static func noUser(_ username: String) -> ProblemError {
        ProblemError(.notFound, detail: "no user \(username)")
    }

    private static func noActiveDevice(_ deviceId: String) -> ProblemError {
        ProblemError(.notFound, detail: "no active device \(deviceId)")
    }

    private static func view(_ user: UserRecord) -> AdminUser {
        AdminUser(userId: user.id, username: user.username, createdAt: user.createdAt)
    }
}
