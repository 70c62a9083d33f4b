import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import TouchstoneProtocol

/// One POST to a push service or token endpoint, and what came of it.
enum PushExchange: Sendable {
    /// The status, the `Retry-After` delay when one was named, and the body (at most 64 KiB of it).
    case answered(status: Int, retryAfter: Duration?, body: [UInt8])
    /// No answer within the time allowed, or no connection: `reason` names which, never the URL.
    case noAnswer(reason: String)

    /// The most of an answer's body that is read.
    static let bodyLimit = 64 * 1024

    /// Sends `body` to `url` with `headers` and waits at most `timeout` for the whole answer.
    static func post(
        _ http: HTTPClient, url: String, headers: [(String, String)], body: [UInt8], timeout: Duration
    ) async -> PushExchange {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers = HTTPHeaders(headers)
        request.body = .bytes(ByteBuffer(bytes: body))
        let deadline = NIODeadline.now() + TimeAmount(timeout)
        do {
            let response = try await http.execute(request, deadline: deadline)
            let answer = try await response.body.collect(upTo: bodyLimit)
            let retryAfter = response.headers.first(name: "retry-after")
                .flatMap(PushServiceAnswer.retryAfterSeconds).map { Duration.seconds($0) }
            return .answered(status: Int(response.status.code), retryAfter: retryAfter, body: Array(buffer: answer))
        } catch let error as HTTPClientError
            where [.deadlineExceeded, .readTimeout, .connectTimeout, .tlsHandshakeTimeout].contains(error)
        {
            return .noAnswer(reason: "timeout")
        } catch {
            return .noAnswer(reason: "no connection (\(type(of: error)))")
        }
    }
}
