import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import TouchstoneProtocol

/// The HTTP client the push clients and the token endpoint share, and how long one try waits for its answer.
struct PushConnection: Sendable {
    let http: HTTPClient
    /// 10 s; shorter in tests.
    let answerTimeout: Duration

    /// The most of an answer's body that is read.
    static let bodyLimit = 64 * 1024

    /// POSTs `value` as JSON (`content-type: application/json`).
    func post(_ url: String, headers: [(String, String)], json value: some Encodable) async -> PostExchange {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // The bodies are strings and numbers in fixed shapes: encoding them cannot fail.
        let body = (try? encoder.encode(value)).map(Array.init) ?? []
        return await post(url, headers: headers + [("content-type", "application/json")], body: body)
    }

    /// POSTs `body` and waits at most ``answerTimeout`` for the whole answer.
    func post(_ url: String, headers: [(String, String)], body: [UInt8]) async -> PostExchange {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers = HTTPHeaders(headers)
        request.body = .bytes(ByteBuffer(bytes: body))
        do {
            let response = try await http.execute(request, deadline: NIODeadline.now() + TimeAmount(answerTimeout))
            let answer = try await response.body.collect(upTo: Self.bodyLimit)
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
