import Foundation
import Synchronization
import TouchstoneClient

/// The real URLSession transport, recording every request it sends (after `rewrite`, when given: to send what a
/// tampered or buggy client would).
final class RecordingTransport: Transport {
    private let base: URLSessionTransport
    private let rewrite: (@Sendable (inout TransportRequest) throws -> Void)?
    private let log = Mutex<[TransportRequest]>([])

    init(server: URL, rewriting rewrite: (@Sendable (inout TransportRequest) throws -> Void)? = nil) {
        base = URLSessionTransport(baseURL: server)
        self.rewrite = rewrite
    }

    /// Every request sent so far, in order, as sent.
    var sent: [TransportRequest] { log.withLock { $0 } }

    /// `METHOD path` of every request sent so far, in order.
    var requests: [String] { sent.map { "\($0.method) \($0.path)" } }

    /// The requests other than reading the app's policy (which carries nothing of the user's).
    var requestsBesidesPolicy: [String] { requests.filter { !$0.hasSuffix("/policy") } }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        var request = request
        try rewrite?(&request)
        log.withLock { [request] in $0.append(request) }
        return try await base.send(request)
    }
}
