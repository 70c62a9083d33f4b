import Foundation
import TouchstoneProtocol
import TouchstoneStorage

/// Privileged actions: the password again (step-up) gives a short privileged token of the same session.
package struct StepUpService: Sendable {
    typealias Store = UserStore & AppStore & DeviceStore

    let store: any Store
    let clock: any WallClock
    let hasher: PasswordHasher
    let auditor: Auditor
    let passwords: PasswordCheck
    let sessionIssuer: SessionIssuer

    static let privilegedScope = "session privileged"

    /// `POST /v1/step-up`: only `aal2` sessions (a device or a passkey) can step up. Admitted by the hashing gate
    /// before anything is audited or counted.
    package func stepUp(_ identity: AccessIdentity, password: String, ip: String) async throws -> StepUpToken {
        try await hasher.admitting { try await checkPassword(identity, password: password, ip: ip) }
    }

    private func checkPassword(_ identity: AccessIdentity, password: String, ip: String) async throws -> StepUpToken {
        try await auditor.recording(
            .stepUp, userId: identity.userId, deviceId: identity.deviceId, clientId: identity.claims.aud, ip: ip
        ) {
            guard identity.session.acr == .aal2 else {
                throw ProblemError(.insufficientAuthentication, detail: "A password session cannot step up; log in with a device first.")
            }
            guard let user = try await store.user(id: identity.userId) else { throw ProblemError.unauthorized }
            let checked = try await passwords.verify(
                username: user.username, password: password, clientId: identity.claims.aud, ip: ip, event: .stepUp)
            // A password changed while this one was checked ends this session anyway, unless it made the change.
            guard try await store.user(id: identity.userId)?.passwordHash == checked.passwordHash else {
                throw ProblemError.invalidCredentials
            }
            let window = try await store.existingApp(identity.claims.aud).policy.privilegedWindowSeconds
            let token = try await sessionIssuer.accessToken(
                for: identity.session, jkt: identity.claims.cnf?.jkt, scope: Self.privilegedScope, lifetime: window)
            return StepUpToken(accessToken: token, expiresIn: window, scope: Self.privilegedScope)
        }
    }

    /// `PUT /v1/devices/{id}/pin`: sets the PIN of one of the caller's devices, resetting and unlocking it. Admitted by
    /// the hashing gate before anything is audited.
    package func setPIN(_ pin: String, deviceId: String, by identity: AccessIdentity, ip: String) async throws {
        try await hasher.admitting { try await storePIN(pin, deviceId: deviceId, by: identity, ip: ip) }
    }

    private func storePIN(_ pin: String, deviceId: String, by identity: AccessIdentity, ip: String) async throws {
        try await auditor.recording(
            .deviceSetPIN, userId: identity.userId, deviceId: deviceId, clientId: identity.claims.aud, ip: ip
        ) {
            guard let device = try await store.device(id: deviceId), device.userId == identity.userId,
                device.isActive
            else { throw ProblemError.deviceNotFound }
            try Self.requirePrivilege(identity)
            let policy = try await store.existingApp(device.clientId).policy
            if let problem = policy.pinProblem(pin) { throw ProblemError.invalidPIN(problem) }
            let now = clock.now()
            guard
                try await store.setPIN(
                    deviceId: device.id, pinHash: try await hasher.hash(pin),
                    notice: SecurityNotices.draft(
                        .pinChanged, userId: device.userId, device: device, actingDevice: identity.deviceId, ip: ip,
                        at: now))
            else { throw ProblemError.deviceNotFound }
        }
    }

    /// `PUT /v1/account/password`: a new password ends every other session of the user. Admitted by the hashing gate
    /// before anything is audited.
    package func setPassword(_ password: String, by identity: AccessIdentity, ip: String) async throws {
        try await hasher.admitting { try await storePassword(password, by: identity, ip: ip) }
    }

    private func storePassword(_ password: String, by identity: AccessIdentity, ip: String) async throws {
        try await auditor.recording(
            .accountSetPassword, userId: identity.userId, deviceId: identity.deviceId,
            clientId: identity.claims.aud, ip: ip
        ) {
            try Self.requirePrivilege(identity)
            guard AccountService.passwordLength.contains(password.unicodeScalars.count) else {
                throw ProblemError(.weakPassword)
            }
            let now = clock.now()
            try await store.setPassword(
                userId: identity.userId, passwordHash: try await hasher.hash(password),
                keepingSession: identity.session.id, at: now,
                notice: SecurityNotices.draft(
                    .passwordChanged, userId: identity.userId, device: try await store.actingDevice(of: identity),
                    actingDevice: identity.deviceId, ip: ip, at: now))
        }
    }

    static func requirePrivilege(_ identity: AccessIdentity) throws {
        guard identity.isPrivileged else {
            throw ProblemError(.stepUpRequired)
        }
    }

}
