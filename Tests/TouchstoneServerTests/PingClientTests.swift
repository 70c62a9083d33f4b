import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Synchronization
import Testing
import TouchstoneDelivery
import TouchstoneStorage

/// What a CIBA ping puts on the wire (CIBA Core §10.2): a JSON `{"auth_req_id"}` POSTed with the client's bearer
/// token, to a client's endpoint served here over loopback.
@Suite struct PingClientTests {
    struct Received: Sendable {
        let authorization: String?
        let contentType: String?
        let body: String
    }

    @Test func aPingPostsTheRequestIdWithTheBearerTokenAndReadsTheAnswer() async throws {
        let received = Mutex<[Received]>([])
        let answers = Mutex<[HTTPResponse.Status]>([.serviceUnavailable, .noContent, .unauthorized])
        let router = Router()
        router.post("/notify") { request, context -> Response in
            let body = try await request.body.collect(upTo: 4096)
            received.withLock {
                $0.append(
                    Received(
                        authorization: request.headers[.authorization], contentType: request.headers[.contentType],
                        body: String(buffer: body)))
            }
            return Response(status: answers.withLock { $0.isEmpty ? .ok : $0.removeFirst() })
        }
        try await Application(router: router).test(.live) { client in
            let port = try #require(client.port)
            let ping = QueuedPing(
                id: "r", endpoint: "http://127.0.0.1:\(port)/notify", authRequestId: "Yq7-abc_1",
                token: "tok-8f3A.b_c~d+e/f==", expiresAt: .distantFuture, attempts: 0)
            let pinger = PingClient(answerTimeout: .seconds(5))
            #expect(await pinger.ping(ping) == .retry(reason: "HTTP 503"))
            #expect(await pinger.ping(ping) == .delivered)
            #expect(await pinger.ping(ping) == .failed(reason: "HTTP 401"))
            var closed = ping
            closed.endpoint = "http://127.0.0.1:9/notify"
            if case .retry = await pinger.ping(closed) {} else { Issue.record("no answer must be retried") }
            try await pinger.shutdown()
        }
        let tries = received.withLock { $0 }
        #expect(tries.count == 3)
        for try_ in tries {
            #expect(try_.authorization == "Bearer tok-8f3A.b_c~d+e/f==")
            #expect(try_.contentType == "application/json")
            #expect(try_.body == #"{"auth_req_id":"Yq7-abc_1"}"#)
        }
    }
}
