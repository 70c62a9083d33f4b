import Foundation
import TouchstoneProtocol

extension TouchstoneClient {
    /// Refreshes the app's session silently, with a request signed by the device key.
    /// - Throws: ``TouchstoneError`` `reauthenticationRequired` when the session is idle past the app's inactivity
    ///   timeout, too old, ended, or absent: unlock with ``login(prompt:fallback:)``.
    @discardableResult
    public func refresh() async throws -> Session {
        try await checkIntegrity()
        let registration = try await requireRegistration()
        guard let stored = try await keyStore.session(clientId: clientID) else {
            throw TouchstoneError(.reauthenticationRequired, "there is no session to refresh; log in")
        }
        let path = Endpoint.refresh.path()
        let proof = try await signedRequest("POST", path, by: registration)
        do {
            let session = try await call(
                "POST", path, body: RefreshRequest(refreshToken: stored.session.refreshToken),
                headers: ["Authorization": "TouchstoneDevice \(proof)"], as: Session.self)
            try await keyStore.setSession(StoredSession(session: session, receivedAt: platform.now()), clientId: clientID)
            return session
        } catch let error as TouchstoneError where Self.sessionIsOver(error) {
            try await keyStore.setSession(nil, clientId: clientID)
            throw TouchstoneError(.reauthenticationRequired, "the session is over; unlock again")
        }
    }

    /// The app's session with a fresh access token: the kept one, or a silent refresh.
    /// - Throws: ``TouchstoneError`` `reauthenticationRequired` when it cannot be refreshed silently.
    public func currentSession() async throws -> Session {
        try await checkIntegrity()
        if let stored = try await keyStore.session(clientId: clientID), stored.isFresh(at: platform.now()) {
            return stored.session
        }
        return try await refresh()
    }

    /// Ends the app's session on the server and forgets it.
    public func logout() async throws {
        guard let stored = try await keyStore.session(clientId: clientID) else { return }
        let registration = try await requireRegistration()
        let path = Endpoint.logout.path()
        let headers = try await bearerHeaders(stored.session.accessToken, "DELETE", path, by: registration)
        do {
            try await send("DELETE", path, headers: headers)
        } catch let error as TouchstoneError where error.serverCode == .unauthorized {
            // Already over on the server.
        }
        try await keyStore.setSession(nil, clientId: clientID)
    }

    /// Sends a Bearer request with a fresh access token and its device proof; a session ended on the server needs
    /// unlocking again.
    func sendAuthorized(_ method: String, _ path: String, by registration: Registration) async throws {
        let session = try await currentSession()
        do {
            try await send(
                method, path, headers: try await bearerHeaders(session.accessToken, method, path, by: registration))
        } catch let error as TouchstoneError where error.serverCode == .unauthorized {
            try await keyStore.setSession(nil, clientId: clientID)
            throw TouchstoneError(.reauthenticationRequired, "the session is over; unlock again")
        }
    }

    /// A Bearer call with `token` (the session's fresh access token unless given) and its device proof, decoding a
    /// 2xx answer; a session ended on the server needs unlocking again.
    func callAuthorized<Response: Decodable>(
        _ method: String, _ path: String, token: String? = nil, by registration: Registration, as type: Response.Type
    ) async throws -> Response {
        let accessToken: String
        if let token { accessToken = token } else { accessToken = try await currentSession().accessToken }
        do {
            let response = try await send(
                method, path, headers: try await bearerHeaders(accessToken, method, path, by: registration))
            return try decode(type, response.body.isEmpty ? Data("{}".utf8) : response.body)
        } catch let error as TouchstoneError where error.serverCode == .unauthorized {
            try await keyStore.setSession(nil, clientId: clientID)
            throw TouchstoneError(.reauthenticationRequired, "the session is over; unlock again")
        }
    }

    private static func sessionIsOver(_ error: TouchstoneError) -> Bool {
        error.code == .reauthenticationRequired
            || [.refreshTokenInvalid, .refreshTokenReused].contains(error.serverCode ?? .invalidRequest)
    }
}
