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
        let registration = try await requireRegistration()
        let session = try await currentSession()
        let path = Endpoint.stepUp.path()
        let token = try await call(
            "POST", path, body: PasswordRequest(password: password),
            headers: try await bearerHeaders(session.accessToken, "POST", path, by: registration), as: StepUpToken.self)
        if var stored = try await keyStore.session(clientId: clientID) {
            stored.privilegedToken = token.accessToken
            stored.privilegedUntil = platform.now().addingTimeInterval(TimeInterval(token.expiresIn))
            try await keyStore.setSession(stored, clientId: clientID)
        }
        return token
    }

    /// Sets a new app PIN for this device (also unlocking a locked PIN); needs a step-up first.
    /// - Throws: ``TouchstoneError`` `invalidPIN` (checked before anything is sent), `stepUpRequired`.
    public func changePIN(_ pin: String) async throws {
        let registration = try await requireRegistration()
        if let problem = try await policy().pinProblem(pin) { throw TouchstoneError(.invalidPIN, problem) }
        let token = try await privilegedToken()
        let path = Endpoint.setPIN.path(registration.deviceId)
        let headers = try await bearerHeaders(token, "PUT", path, by: registration)
        try await send("PUT", path, body: PINRequest(pin: pin), headers: headers)
    }

    /// The privileged access token of the last step-up, while its window lasts.
    /// - Throws: ``TouchstoneError`` `stepUpRequired` without one.
    func privilegedToken() async throws -> String {
        guard let token = try await keptPrivilegedToken() else {
            throw TouchstoneError(.stepUpRequired, "confirm with your password first (step-up)")
        }
        return token
    }

    /// The privileged access token of the last step-up, while its window lasts; `nil` otherwise.
    func keptPrivilegedToken() async throws -> String? {
        guard let stored = try await keyStore.session(clientId: clientID), let token = stored.privilegedToken,
            let until = stored.privilegedUntil, until > platform.now()
        else { return nil }
        return token
    }
}
