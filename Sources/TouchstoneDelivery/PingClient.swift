import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import TouchstoneStorage

/// Sends CIBA pings (CIBA Core §10.2) over its own HTTP client: TLS with the system's roots, no redirects, an answer
/// within 10 s. Its owner calls ``shutdown()`` once, after the last ping.
package final class PingClient: PingGateway {
    private let http: HTTPClient
    private let answerTimeout: Duration

    /// The body of a ping: `{"auth_req_id":…}`.
    private struct Body: Encodable {
        let authRequestId: String

        enum CodingKeys: String, CodingKey {
            case authRequestId = "auth_req_id"
        }
    }

    package init(answerTimeout: Duration = .seconds(10)) {
        let timeout = TimeAmount(answerTimeout)
        http = HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup,
            configuration: HTTPClient.Configuration(
                redirectConfiguration: .disallow, timeout: HTTPClient.Configuration.Timeout(connect: timeout, read: timeout)
            ).untraced())
        self.answerTimeout = answerTimeout
    }

    package func ping(_ ping: QueuedPing) async -> PingAnswer {
        var request = HTTPClientRequest(url: ping.endpoint)
        request.method = .POST
        request.headers = HTTPHeaders([
            ("content-type", "application/json"), ("authorization", "Bearer " + ping.token),
        ])
        guard let body = try? JSONEncoder().encode(Body(authRequestId: ping.authRequestId)) else {
            return .failed(reason: "the body cannot be encoded")
        }
        request.body = .bytes(ByteBuffer(bytes: body))
        return await OutboundSpan.around(.ping, url: ping.endpoint) { span in
            do {
                let response = try await http.execute(request, deadline: NIODeadline.now() + TimeAmount(answerTimeout))
                _ = try await response.body.collect(upTo: 64 * 1024)
                span.recordAnswer(status: Int(response.status.code))
                return PingAnswer(status: Int(response.status.code))
            } catch {
                span.recordAnswer(status: nil)
                return .retry(reason: "no answer (\(type(of: error)))")
            }
        }
    }

    /// Closes the HTTP client's connections; no ping can be sent after it.
    package func shutdown() async throws {
        try await http.shutdown()
    }
}
