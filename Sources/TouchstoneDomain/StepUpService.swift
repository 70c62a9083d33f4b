import Foundation
import TouchstoneProtocol

/// Privileged actions: the password again (step-up) gives a short privileged token of the same session.
package struct StepUpService: Sendable {
    package let environment: ServiceEnvironment

    static let privilegedScope = "session privileged"

    /// `POST /v1/step-up`: only `aal2` sessions (a device or a passkey) can step up. Admitted by the hashing gate
    /// before anything is audited or counted.
    package func stepUp(_ identity: AccessIdentity, password: String, ip: String) async throws -> StepUpToken {
        try await environment.hasher.admitting { try await checkPassword(identity, password: password, ip: ip) }
    }

    private func checkPassword(_ identity: AccessIdentity, password: String, ip: String) async throws -> StepUpToken {
        try await environment.auditor.recording(
            "step_up", userId: identity.userId, deviceId: identity.deviceId, clientId: identity.claims.aud, ip: ip
        ) {
            guard identity.session.acr == "aal2" else {
                throw ProblemError(.insufficientAuthentication, detail: "A password session cannot step up; log in with a device first.")
            }
            guard let user = try await environment.store.user(id: identity.userId) else { throw ProblemError.unauthorized }
            let checked = try await AccountService(environment: environment).verifyPassword(
                username: user.username, password: password, clientId: identity.claims.aud, ip: ip, event: "step_up")
            // A password changed while this one was checked ends this session anyway, unless it made the change.
            guard try await environment.store.user(id: identity.userId)?.passwordHash == checked.passwordHash else {
                throw ProblemError.invalidCredentials
            }
            let window = try await environment.app(identity.claims.aud).policy.privilegedWindowSeconds
            let token = try await SessionService(environment: environment).accessToken(
                for: identity.session, jkt: identity.claims.cnf?.jkt, scope: Self.privilegedScope, lifetime: window)
            return StepUpToken(accessToken: token, expiresIn: window, scope: Self.privilegedScope)
        }
    }

    /// `PUT /v1/devices/{id}/pin`: sets the PIN of one of the caller's devices, resetting and unlocking it. Admitted by
    /// the hashing gate before anything is audited.
    package func setPIN(_ pin: String, deviceId: String, by identity: AccessIdentity, ip: String) async throws {
        try await environment.hasher.admitting { try await storePIN(pin, deviceId: deviceId, by: identity, ip: ip) }
    }

    private func storePIN(_ pin: String, deviceId: String, by identity: AccessIdentity, ip: String) async throws {
        try await environment.auditor.recording(
            "device.set_pin", userId: identity.userId, deviceId: deviceId, clientId: identity.claims.aud, ip: ip
        ) {
            guard let device = try await environment.store.device(id: deviceId), device.userId == identity.userId,
                device.isActive
            else { throw ProblemError.deviceNotFound }
            try Self.requirePrivilege(identity)
            let policy = try await environment.app(device.clientId).policy
            if let problem = policy.pinProblem(pin) { throw ProblemError.invalidPIN(problem) }
            let now = environment.clock.now()
            guard
                try await environment.store.setPIN(
                    deviceId: device.id, pinHash: try await environment.hasher.hash(pin),
                    notice: SecurityNotices.draft(
                        .pinChanged, userId: device.userId, device: device, actingDevice: identity.deviceId, ip: ip,
                        at: now))
            else { throw ProblemError.deviceNotFound }
        }
    }

    /// `PUT /v1/account/password`: a new password ends every other session of the user. Admitted by the hashing gate
    /// before anything is audited.
    package func setPassword(_ password: String, by identity: AccessIdentity, ip: String) async throws {
        try await environment.hasher.admitting { try await storePassword(password, by: identity, ip: ip) }
    }

    private func storePassword(_ password: String, by identity: AccessIdentity, ip: String) async throws {
        try await environment.auditor.recording(
            "account.set_password", userId: identity.userId, deviceId: identity.deviceId,
            clientId: identity.claims.aud, ip: ip
        ) {
            try Self.requirePrivilege(identity)
            guard AccountService.passwordLength.contains(password.unicodeScalars.count) else {
                throw ProblemError(.weakPassword)
            }
            let now = environment.clock.now()
            try await environment.store.setPassword(
                userId: identity.userId, passwordHash: try await environment.hasher.hash(password),
                keepingSession: identity.session.id, at: now,
                notice: SecurityNotices.draft(
                    .passwordChanged, userId: identity.userId, device: try await environment.actingDevice(of: identity),
                    actingDevice: identity.deviceId, ip: ip, at: now))
        }
    }

    static func requirePrivilege(_ identity: AccessIdentity) throws {
        guard identity.isPrivileged else {
            throw ProblemError(.stepUpRequired)
        }
    }

    package init(environment: ServiceEnvironment) {
        self.environment = environment
    }
}
