import Foundation
import HTTPTypes
import Logging
import Synchronization
import Testing
import TouchstoneDelivery
import TouchstoneProtocol
import TouchstoneTestSupport

@testable import TouchstoneDomain
@testable import TouchstoneStorage

/// CIBA's ping mode: a decision queues `{"auth_req_id"}` for the client's notification endpoint, sent with its bearer
/// token once, retried like a push.
@Suite struct CIBAPingTests {
    /// A stand-in for clients' notification endpoints: records every try and answers from a script (then 200).
    final class Endpoint: PingGateway {
        private let state: Mutex<(tries: [QueuedPing], script: [PingAnswer])>

        init(answers: [PingAnswer] = []) {
            state = Mutex(([], answers))
        }

        var tries: [QueuedPing] { state.withLock { $0.tries } }

        func ping(_ ping: QueuedPing) async -> PingAnswer {
            state.withLock { state in
                state.tries.append(ping)
                return state.script.isEmpty ? .delivered : state.script.removeFirst()
            }
        }
    }

    static func sender(_ h: Harness, _ endpoint: Endpoint) -> PingSender {
        var logger = Logger(label: "ping")
        logger.logLevel = .critical
        return PingSender(
            store: h.store, gateway: endpoint, now: { [clock = h.clock] in clock.now() }, logger: logger,
            after: AsyncStream { $0.finish() })
    }

    static func pingScene(_ h: Harness) async throws -> CIBATests.Scene {
        try await CIBATests.makeScene(h, mode: "ping", endpoint: "https://bank.example/ciba/notify")
    }

    @Test func anApprovalIsPingedOnceWithTheBearerTokenAndRetriedAfter503() async throws {
        try await Harness.run { h in
            let scene = try await Self.pingScene(h)
            let id = try await CIBATests.authorized(h, scene, ["client_notification_token": "tok-8f3A.b_c~d+e/f=="])
            let endpoint = Endpoint(answers: [.retry(reason: "HTTP 503")])
            let sender = Self.sender(h, endpoint)
            #expect(try await sender.sendDue() == 0)  // nothing before a decision
            let item = try #require(try await CIBATests.cibaItems(h, scene).first)
            #expect(try await CIBATests.decide(h, scene, item).status == .ok)
            #expect(try await sender.sendDue() == 1)  // answered 503
            #expect(try await sender.sendDue() == 0)  // due again after a second
            h.clock.advance(by: 1)
            #expect(try await sender.sendDue() == 1)  // delivered
            h.clock.advance(by: 60)
            #expect(try await sender.sendDue() == 0)  // once
            #expect(endpoint.tries.count == 2)
            for ping in endpoint.tries {
                #expect(ping.endpoint == "https://bank.example/ciba/notify")
                #expect(ping.token == "tok-8f3A.b_c~d+e/f==")
                #expect(ping.authRequestId == id)
            }
            // The client then takes its tokens.
            #expect(try await CIBATests.poll(h, scene, id).status == .ok)
        }
    }

    @Test func aDenialIsPingedAndAFailedPingIsGivenUp() async throws {
        try await Harness.run { h in
            let scene = try await Self.pingScene(h)
            let id = try await CIBATests.authorized(h, scene, ["client_notification_token": "t"])
            let item = try #require(try await CIBATests.cibaItems(h, scene).first)
            _ = try await CIBATests.decide(h, scene, item, approve: false)
            let endpoint = Endpoint(answers: [.failed(reason: "HTTP 404")])
            let sender = Self.sender(h, endpoint)
            #expect(try await sender.sendDue() == 1)
            h.clock.advance(by: 60)
            #expect(try await sender.sendDue() == 0)
            #expect(endpoint.tries.map(\.authRequestId) == [id])
            #expect(try await CIBATests.pollError(h, scene, id) == "access_denied")
        }
    }

    /// Retries stop before the request expires.
    @Test func retriesEndWhenTheRequestExpires() async throws {
        try await Harness.run { h in
            let scene = try await Self.pingScene(h)
            _ = try await CIBATests.authorized(
                h, scene, ["client_notification_token": "t", "requested_expiry": "30"])
            let item = try #require(try await CIBATests.cibaItems(h, scene).first)
            _ = try await CIBATests.decide(h, scene, item)
            let endpoint = Endpoint(answers: Array(repeating: .retry(reason: "no answer"), count: 20))
            let sender = Self.sender(h, endpoint)
            for _ in 0..<40 {
                try await sender.sendDue()
                h.clock.advance(by: 1)
            }
            // Tries at 0, 1, 3, 7 and 15 s; the next would be at 31 s, after the request's 30 s.
            #expect(endpoint.tries.count == 5)
        }
    }

    /// Unknown users and requests that were never delivered are never pinged, and a ping client must send its token.
    @Test func unknownUsersAreNeverPingedAndAPingClientMustSendItsToken() async throws {
        try await Harness.run { h in
            let scene = try await Self.pingScene(h)
            let missing = try await CIBATests.authorize(h, scene)
            #expect(try h.oauthError(missing) == "invalid_request")
            for token in [String(repeating: "a", count: 1025), "with space", "=abc", "a=b"] {
                let refused = try await CIBATests.authorize(h, scene, ["client_notification_token": token])
                #expect(try h.oauthError(refused) == "invalid_request", "\(token)")
            }
            _ = try await CIBATests.authorized(
                h, scene, ["client_notification_token": "t", "login_hint": "nobody"])
            let endpoint = Endpoint()
            let sender = Self.sender(h, endpoint)
            h.clock.advance(by: 301)
            #expect(try await sender.sendDue() == 0)
            #expect(endpoint.tries.isEmpty)
        }
    }

    @Test(arguments: [
        (200, PingAnswer.delivered), (204, .delivered), (429, .retry(reason: "HTTP 429")),
        (500, .retry(reason: "HTTP 500")), (503, .retry(reason: "HTTP 503")), (400, .failed(reason: "HTTP 400")),
        (401, .failed(reason: "HTTP 401")), (302, .failed(reason: "HTTP 302")),
    ])
    func theEndpointsAnswerDecidesTheTry(_ status: Int, _ answer: PingAnswer) {
        #expect(PingAnswer(status: status) == answer)
    }
}
