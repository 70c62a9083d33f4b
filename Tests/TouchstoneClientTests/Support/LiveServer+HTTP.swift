import Foundation
import Testing
import TouchstoneClient
import TouchstoneCrypto
import TouchstoneProtocol

@testable import TouchstoneDomain
@testable import TouchstoneHTTP
@testable import TouchstoneServer
@testable import TouchstoneStorage

/// Requests to the server that are not the SDK's: a browser's web login, a relying service's confirmation, the web
/// page's password session.
extension LiveServer {
    /// Sends a request over the real socket and decodes its 2xx answer.
    func http<Answer: Decodable>(
        _ method: String, _ path: String, body: (any Encodable)? = nil, headers: [String: String] = [:],
        as type: Answer.Type, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Answer {
        let response = try await URLSessionTransport(baseURL: url).send(
            TransportRequest(
                method: method, path: path, headers: headers,
                body: try body.map { try WireCoding.encoder().encode($0) }))
        try #require(
            (200..<300).contains(response.status), "\(method) \(path): \(response.status) \(String(decoding: response.body, as: UTF8.self))",
            sourceLocation: sourceLocation)
        return try WireCoding.decoder().decode(type, from: response.body)
    }

    /// A password session (`aal1`, no device), as the web page gets it.
    func passwordSession(_ username: String = "ana", clientId: String = LiveServer.demoApp) async throws -> Session {
        try await http(
            "POST", "/v1/sessions/password",
            body: PasswordLoginRequest(clientId: clientId, username: username, password: Self.password), as: Session.self)
    }

    /// An API key of an app, for a relying service; only its SHA-256 is stored, as `admin api-key create` does.
    func createAPIKey(clientId: String = LiveServer.demoApp) async throws -> String {
        let key = "tsk_" + SecretDigest.randomToken()
        try await store.createAPIKey(
            APIKeyRecord(id: UUID().uuidString.lowercased(), clientId: clientId, createdAt: clock.now(), revokedAt: nil),
            hash: SecretDigest.sha256(key))
        return key
    }
}
