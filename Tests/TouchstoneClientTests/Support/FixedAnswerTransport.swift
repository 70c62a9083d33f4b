import Foundation
import TouchstoneClient

/// A transport that answers every request with the same status and body: for answers a Touchstone server never
/// gives (a proxy's error page, a body that is not the protocol).
struct FixedAnswerTransport: Transport {
    let status: Int
    let body: String

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        TransportResponse(status: status, body: Data(body.utf8))
    }
}
