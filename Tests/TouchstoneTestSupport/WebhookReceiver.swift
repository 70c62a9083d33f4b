import Foundation

/// A webhook receiver: `Tests/TouchstoneDeliveryTests/Scripts/webhook_receiver.py`, which verifies every delivery
/// with the `standardwebhooks` package from PyPI (installed by `scripts/test`) once told the secret of its path
/// (``setSecret(_:for:)``), and answers each path from a script (``setAnswers(_:for:)``; 200 by default).
///
/// Use ``withWebhookReceiver(tls:_:)``: it stops the process however the test ends (the script also ends when this
/// process does: its standard input closes).
public final class WebhookReceiver {
    /// A request as the receiver recorded it, before answering it.
    public struct RecordedRequest: Decodable, Sendable {
        public let method: String
        /// The request target: path and query.
        public let path: String
        /// Lower-case names.
        public let headers: [String: String]
        public let body: String
        /// The server name the client sent in TLS (`nil` without one, or without TLS).
        public let sni: String?
        /// What `standardwebhooks.Webhook(secret).verify(body, headers)` said: `true`, or its error's text (`nil` when
        /// no secret was set for the path).
        public let verification: Verification?
        /// What the receiver answered (`200`, `503 retry-after=7`, `slow`…).
        public let answered: String
        /// When it came, in the receiver's Unix time.
        public let at: Double

        public enum Verification: Decodable, Sendable, Equatable {
            case verified
            case refused(String)

            public init(from decoder: any Decoder) throws {
                let container = try decoder.singleValueContainer()
                if let text = try? container.decode(String.self) {
                    self = .refused(text)
                } else {
                    self = try container.decode(Bool.self) ? .verified : .refused("false")
                }
            }
        }

        enum CodingKeys: String, CodingKey {
            case method, path, headers, body, sni, answered, at
            case verification = "verified"
        }

        /// The body as a JSON object.
        public func json() throws -> [String: Any] {
            guard let object = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any] else {
                throw CocoaError(.propertyListReadCorrupt)
            }
            return object
        }
    }

    /// `http://127.0.0.1:PORT`, or `https://…` with TLS.
    public var url: String { server.url }
    /// With TLS, the test CA's certificate (PEM): trust it, and only in tests.
    public var caPEMPath: String { server.directory.path("ca.pem") }
    private let server: ScriptServer

    private init(server: ScriptServer) {
        self.server = server
    }

    /// The port it listens on.
    public var port: Int { Int(url.split(separator: ":").last ?? "") ?? 0 }

    /// Starts the script and waits for its listening line.
    /// - Parameter tls: HTTPS with a test CA of its own (``caPEMPath``), for 127.0.0.1 and localhost.
    public static func start(tls: Bool = false) async throws -> WebhookReceiver {
        WebhookReceiver(
            server: try await ScriptServer.start(
                script: "Tests/TouchstoneDeliveryTests/Scripts/webhook_receiver.py", directory: try ScratchDirectory(),
                arguments: tls ? ["--tls"] : [], readyPrefix: "webhook-receiver listening "))
    }

    /// The test CA's certificate as text (with TLS).
    public func caPEM() throws -> String {
        try String(contentsOfFile: caPEMPath, encoding: .utf8)
    }

    /// Answers `path`'s requests from now on with `answers` in turn, the last one again after them (counting the
    /// path's requests since the receiver started): a status (`"200"`, `"503"`, `"410"`), optionally with
    /// `" retry-after=SECONDS"`; `"302"` redirects to `/elsewhere`; `"slow"` answers nothing for 60 s.
    public func setAnswers(_ answers: [String], for path: String) throws {
        try update("answers.json") { $0[path] = answers }
    }

    /// Verifies `path`'s requests from now on with `secret` (`whsec_…`).
    public func setSecret(_ secret: String, for path: String) throws {
        try update("secrets.json") { $0[path] = secret }
    }

    private func update(_ name: String, _ change: (inout [String: Any]) -> Void) throws {
        let file = URL(fileURLWithPath: server.directory.path(name))
        var object = ((try? Data(contentsOf: file)).flatMap { try? JSONSerialization.jsonObject(with: $0) }
            as? [String: Any]) ?? [:]
        change(&object)
        // Atomically: the script never reads half a file.
        try JSONSerialization.data(withJSONObject: object).write(to: file, options: .atomic)
    }

    /// Every request received so far, in order.
    public func recorded() throws -> [RecordedRequest] {
        try server.recorded(as: RecordedRequest.self)
    }

    /// The requests to `path` once there are at least `count`, waiting up to `seconds`.
    /// - Throws: ``ScriptServer/NotReceived`` when they do not come in time.
    public func requests(atLeast count: Int, path: String, within seconds: Double = 30) async throws -> [RecordedRequest] {
        try await server.requests(atLeast: count, as: RecordedRequest.self, within: seconds) { $0.path == path }
    }

    /// Stops the script and waits for it.
    public func stop() async {
        await server.stop()
    }
}

/// Runs `body` with a started ``WebhookReceiver``, stopped whatever happens.
public func withWebhookReceiver<T>(tls: Bool = false, _ body: (WebhookReceiver) async throws -> T) async throws -> T {
    let receiver = try await WebhookReceiver.start(tls: tls)
    do {
        let result = try await body(receiver)
        await receiver.stop()
        return result
    } catch {
        await receiver.stop()
        throw error
    }
}
