import Foundation
import TouchstoneCrypto
import TouchstoneProtocol

/// The device side of Touchstone: registration, biometric and PIN login, sessions and device management.
///
/// ```swift
/// let client = TouchstoneClient(server: url, clientID: "com.example.pay", platform: .software(directory: path))
/// try await client.register(username: "ana", password: pw, pin: "4821")
/// let session = try await client.login(prompt: "Log in to Example Pay")
/// ```
/// Errors are ``TouchstoneError``s with stable codes.
public final class TouchstoneClient: Sendable {
    /// The server's base URL, which is also its ISSUER (the `aud` of every token this device signs).
    public let server: URL
    /// This app's client id.
    public let clientID: String
    let platform: Platform
    let transport: any Transport
    var issuer: String { server.absoluteString.trimmingSuffix("/") }
    var keyStore: any KeyStore { platform.keyStore }

    public init(server: URL, clientID: String, platform: Platform) {
        self.server = server
        self.clientID = clientID
        self.platform = platform
        self.transport = platform.transport ?? URLSessionTransport(baseURL: server)
    }

    // MARK: Shared steps

    /// Stops before anything else when the device reports being compromised; every flow starts with it.
    /// - Throws: ``TouchstoneError`` `deviceCompromised`.
    public func checkIntegrity() async throws {
        if await platform.integrity.isCompromised() {
            throw TouchstoneError(.deviceCompromised, "this device reports being jailbroken or rooted")
        }
    }

    func requireRegistration() async throws -> Registration {
        guard let registration = try await keyStore.registration(), registration.server == issuer else {
            throw TouchstoneError(.notRegistered, "this device is not registered with \(issuer)")
        }
        return registration
    }

    /// The app's policy from the server.
    func policy() async throws -> AppPolicy {
        try await call(Endpoint.policy.method, Endpoint.policy.path(clientID), as: AppPolicy.self)
    }

    /// The device's fingerprint, as the server binds it.
    func fingerprint() async throws -> (identity: DeviceIdentity, dfp: String) {
        let identity = try await platform.deviceInfo.describe()
        return (identity, DeviceFingerprint.of(vendorId: identity.vendorId, model: identity.model, name: identity.name))
    }

    /// A `touchstone-request+jwt` of one request (`htu` without the query), signed by the device key: for
    /// `Authorization: TouchstoneDevice` and `Touchstone-Device-Proof`.
    /// - ⚠️ The server accepts each one once (fresh `jti`): sign one per request.
    func signedRequest(_ method: String, _ path: String, by registration: Registration) async throws -> String {
        let times = tokenTimes()
        let target = path.firstIndex(of: "?").map { String(path[..<$0]) } ?? path
        return try await registration.deviceKey.sign(
            RequestClaims(
                iss: registration.deviceId, aud: issuer, iat: times.iat, exp: times.exp, jti: UUID().uuidString,
                htm: method, htu: issuer + target))
    }

    /// The headers of one request with a device session's access token (privileged ones too): `Authorization:
    /// Bearer` and the `Touchstone-Device-Proof` of that request, without which the server refuses the token.
    /// - ⚠️ Build them for every request: a proof names its method and path and is accepted once.
    func bearerHeaders(_ accessToken: String, _ method: String, _ path: String, by registration: Registration)
        async throws -> [String: String]
    {
        [
            "Authorization": "Bearer \(accessToken)",
            TouchstoneHeader.deviceProof: try await signedRequest(method, path, by: registration),
        ]
    }

    /// NumericDate now, and the usual lifetime of a device-signed token.
    func tokenTimes() -> (iat: Int64, exp: Int64) {
        let now = Int64(platform.now().timeIntervalSince1970)
        return (now, now + 60)
    }

    // MARK: HTTP

    /// Sends a request and decodes a 2xx answer; anything else becomes a ``TouchstoneError``.
    func call<Response: Decodable>(
        _ method: String, _ path: String, body: (any Encodable)? = nil, headers: [String: String] = [:],
        as type: Response.Type
    ) async throws -> Response {
        let response = try await send(method, path, body: body, headers: headers)
        return try decode(type, response.body)
    }

    /// Sends a request; a non-2xx answer throws the problem it carries.
    @discardableResult
    func send(_ method: String, _ path: String, body: (any Encodable)? = nil, headers: [String: String] = [:])
        async throws -> TransportResponse
    {
        let data = try body.map { try WireCoding.encoder().encode($0) }
        let response = try await transport.send(TransportRequest(method: method, path: path, headers: headers, body: data))
        guard (200..<300).contains(response.status) else {
            guard let problem = try? WireCoding.decoder().decode(Problem.self, from: response.body) else {
                throw TouchstoneError(.transport, "the server answered \(response.status) without a problem body")
            }
            throw TouchstoneError.from(problem)
        }
        return response
    }

    func decode<T: Decodable>(_ type: T.Type, _ data: Data) throws -> T {
        do {
            return try WireCoding.decoder().decode(type, from: data)
        } catch {
            throw TouchstoneError(.transport, "the server's answer does not match the protocol: \(error)")
        }
    }

}
