import Foundation

/// A stand-in for APNs, FCM HTTP v1 and Google's OAuth token endpoint over HTTP/2 and TLS:
/// `Tests/TouchstoneDeliveryTests/Scripts/push_server.py` (Python's h2, installed by `scripts/test`), with a test CA
/// of its own. Give `serve` `--insecure-apns-url`/`--insecure-fcm-url` ``url`` and `--insecure-push-ca` ``caPEMPath``,
/// and service accounts `token_uri` ``tokenURI(_:)``.
///
/// Use ``withPushTestServer(behaviours:tokenExpiresIn:_:)``: it stops the process however the test ends (the script
/// also ends when this process does: its standard input closes).
public final class PushTestServer {
    /// How the stand-in answers a device token (the script's table names each, for APNs and for FCM).
    public enum Behaviour: String, Sendable {
        case ok
        case badDeviceToken = "bad-device-token"
        case notForTopic = "not-for-topic"
        case badTopic = "bad-topic"
        case unregistered
        case senderIdMismatch = "sender-id-mismatch"
        case permissionDenied = "permission-denied"
        case expiredProviderTokenOnce = "expired-provider-token-once"
        case expiredProviderToken = "expired-provider-token"
        case unauthenticatedOnce = "unauthenticated-once"
        case unauthenticated
        case busy
        case down
        case slow
        case redirect
    }

    /// A request as the stand-in received it.
    public struct RecordedRequest: Decodable, Sendable, Equatable {
        public let method: String
        public let path: String
        public let authority: String
        /// Lower-case names; pseudo-headers left out.
        public let headers: [String: String]
        public let body: String
        /// The protocol TLS agreed on (ALPN): `h2`.
        public let alpn: String?

        /// The body as a JSON object.
        public func json() throws -> [String: Any] {
            guard let object = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any] else {
                throw CocoaError(.propertyListReadCorrupt)
            }
            return object
        }

        /// The body as an HTML form (`application/x-www-form-urlencoded`).
        public func form() -> [String: String] {
            var components = URLComponents()
            components.percentEncodedQuery = body.replacingOccurrences(of: "+", with: "%20")
            return Dictionary(
                (components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
        }
    }

    /// `https://127.0.0.1:PORT`.
    public var url: String { server.url }
    /// The test CA's certificate (PEM): trust it, and only in tests.
    public var caPEMPath: String { server.directory.path("ca.pem") }
    public var directory: ScratchDirectory { server.directory }
    private let server: ScriptServer

    private init(server: ScriptServer) {
        self.server = server
    }

    /// The test CA's certificate as text.
    public func caPEM() throws -> String {
        try String(contentsOfFile: caPEMPath, encoding: .utf8)
    }

    /// The token endpoint's URL: `url/token`, or `url/token/BEHAVIOUR` (`refused`, `down`, `garbage`, `slow`).
    public func tokenURI(_ behaviour: String? = nil) -> String {
        url + "/token" + (behaviour.map { "/" + $0 } ?? "")
    }

    /// Starts the script and waits for its listening line.
    /// - Parameters:
    ///   - behaviours: device token → behaviour; other tokens are accepted.
    ///   - tokenExpiresIn: the `expires_in` of the access tokens it gives.
    public static func start(behaviours: [String: Behaviour] = [:], tokenExpiresIn: Int = 3600) async throws -> PushTestServer {
        let directory = try ScratchDirectory()
        let behavioursPath = directory.path("behaviours.json")
        try JSONSerialization.data(withJSONObject: behaviours.mapValues(\.rawValue))
            .write(to: URL(fileURLWithPath: behavioursPath))
        return PushTestServer(
            server: try await ScriptServer.start(
                script: "Tests/TouchstoneDeliveryTests/Scripts/push_server.py", directory: directory,
                arguments: ["--behaviours", behavioursPath, "--token-expires-in", String(tokenExpiresIn)],
                readyPrefix: "push-server listening "))
    }

    /// Every request received so far, in order.
    public func recorded() throws -> [RecordedRequest] {
        try server.recorded(as: RecordedRequest.self)
    }

    /// The requests received so far once there are at least `count` (whose path starts with `pathPrefix`), waiting
    /// up to `seconds`.
    /// - Throws: ``ScriptServer/NotReceived`` when they do not come in time.
    public func requests(atLeast count: Int, pathPrefix: String = "/", within seconds: Double = 30) async throws
        -> [RecordedRequest]
    {
        try await server.requests(atLeast: count, as: RecordedRequest.self, within: seconds) {
            $0.path.hasPrefix(pathPrefix)
        }
    }

    /// Stops the script and waits for it.
    public func stop() async {
        await server.stop()
    }
}

/// Runs `body` with a started ``PushTestServer``, stopped whatever happens.
public func withPushTestServer<T>(
    behaviours: [String: PushTestServer.Behaviour] = [:], tokenExpiresIn: Int = 3600,
    _ body: (PushTestServer) async throws -> T
) async throws -> T {
    let server = try await PushTestServer.start(behaviours: behaviours, tokenExpiresIn: tokenExpiresIn)
    do {
        let result = try await body(server)
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}
