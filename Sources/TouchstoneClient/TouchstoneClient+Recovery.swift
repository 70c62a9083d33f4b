import Foundation
import TouchstoneProtocol

extension TouchstoneClient {
    /// Creates the account's ten recovery codes, replacing any earlier ones; needs a step-up first. Show them once
    /// and let the user keep them somewhere safe: each lets a new device join with the password, without another
    /// device's approval.
    /// - Returns: the codes, `xxxx-xxxx-xxxx`.
    /// - Throws: ``TouchstoneError`` `stepUpRequired`.
    /// - ⚠️ Never store the codes on the device: they are the way back when the device is lost.
    public func createRecoveryCodes() async throws -> [String] {
        let registration = try await requireRegistration()
        let token = try await privilegedToken()
        return try await callAuthorized(
            Endpoint.createRecoveryCodes.method, Endpoint.createRecoveryCodes.path(), token: token, by: registration,
            as: RecoveryCodes.self
        ).codes
    }

    /// The account (username, recovery codes left).
    public func account() async throws -> AccountProfile {
        try await callAuthorized(
            "GET", Endpoint.account.path(), by: try await requireRegistration(), as: AccountProfile.self)
    }

    /// The user's live sessions, on every device and browser; `current` marks this app's session on this device.
    public func sessions() async throws -> [SessionSummary] {
        try await callAuthorized(
            "GET", Endpoint.sessions.path(), by: try await requireRegistration(), as: SessionList.self
        ).sessions
    }

    /// Ends one of the user's sessions: this one with the session alone (then forgotten here), any other with the
    /// privileged token of a recent step-up.
    /// - Throws: ``TouchstoneError`` `stepUpRequired` for another session without a step-up; `server` (`not_found`)
    ///   for an unknown or ended session.
    public func endSession(id sessionId: String) async throws {
        let registration = try await requireRegistration()
        let session = try await currentSession()
        let token = try await keptPrivilegedToken() ?? session.accessToken
        _ = try await callAuthorized(
            "DELETE", Endpoint.endSession.path(sessionId), token: token, by: registration, as: Empty.self)
        if let stored = try await keyStore.session(clientId: clientID), sessionId == Self.sessionId(of: stored.session) {
            try await keyStore.setSession(nil, clientId: clientID)
        }
    }

    /// The `sid` of a session's access token.
    static func sessionId(of session: Session) -> String? {
        let parts = session.accessToken.split(separator: ".")
        guard parts.count == 3, let payload = Base64URL.decode(String(parts[1])),
            let claims = try? JSONDecoder().decode(SessionIdClaim.self, from: payload)
        else { return nil }
        return claims.sid
    }
}

/// An answer without a body (204).
private struct Empty: Decodable {}

/// The one claim of an access token the SDK reads: its session.
private struct SessionIdClaim: Decodable {
    var sid: String
}
