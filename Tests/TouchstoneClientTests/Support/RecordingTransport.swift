import Foundation
import Synchronization
import TouchstoneClient

/// The real URLSession transport, recording `METHOD path` of every request it sends.
final class RecordingTransport: Transport {
    private let base: URLSessionTransport
    private let log = Mutex<[String]>([])

    init(server: URL) {
        base = URLSessionTransport(baseURL: server)
    }

    /// Every request sent so far, in order.
    var requests: [String] { log.withLock { $0 } }

    /// The requests other than reading the app's policy (which carries nothing of the user's).
    var requestsBesidesPolicy: [String] { requests.filter { !$0.hasSuffix("/policy") } }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        log.withLock { $0.append("\(request.method) \(request.path)") }
        return try await base.send(request)
    }
}
