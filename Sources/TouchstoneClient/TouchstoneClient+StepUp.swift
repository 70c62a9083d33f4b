import Foundation
import TouchstoneProtocol

extension TouchstoneClient {
    /// Confirms the password again (step-up) for a short privileged window, as changing the PIN or the password,
    /// or removing another device, needs.
    /// - Throws: ``TouchstoneError`` `server` (`invalid_credentials`, `too_many_attempts`),
    ///   `reauthenticationRequired` when there is no device session to step up.
    /// - ⚠️ The password is sent once and never kept.
    @discardableResult
    public func stepUp(password: String) async throws -> StepUpToken {
        _ = try await requireRegistration()
        let session = try await currentSession()
        let token = try await call(
            "POST", "/v1/step-up", body: PasswordRequest(password: password),
            headers: ["Authorization": "Bearer \(session.accessToken)"], as: StepUpToken.self)
        if var stored = try await keyStore.session(clientId: clientID) {
            stored.privilegedToken = token.accessToken
            stored.privilegedUntil = Date().addingTimeInterval(TimeInterval(token.expiresIn))
            try await keyStore.setSession(stored, clientId: clientID)
        }
        return token
    }

    /// Sets a new app PIN for this device (also unlocking a locked PIN); needs a step-up first.
    /// - Throws: ``TouchstoneError`` `invalidPIN` (checked before anything is sent), `stepUpRequired`.
    public func changePIN(_ pin: String) async throws {
        let registration = try await requireRegistration()
        if let problem = try await policy().pinProblem(pin) { throw TouchstoneError(.invalidPIN, problem) }
        guard let stored = try await keyStore.session(clientId: clientID), let token = stored.privilegedToken,
            let until = stored.privilegedUntil, until > Date()
        else { throw TouchstoneError(.stepUpRequired, "confirm with your password first (step-up)") }
        try await send(
            "PUT", "/v1/devices/\(Self.pathComponent(registration.deviceId))/pin", body: PINRequest(pin: pin),
            headers: ["Authorization": "Bearer \(token)"])
    }
}
