import Foundation
import Testing
import TouchstoneProtocol
import TouchstoneStorage
import TouchstoneTestSupport

@testable import TouchstoneDelivery

/// The webhook client against a real receiver (`webhook_receiver.py`) that verifies every delivery with the
/// `standardwebhooks` package from PyPI: the Standard Webhooks headers and signature, the answers as the outbox acts on
/// them, no redirect followed, no link-local address connected to, and the certificate checked against the URL's host.
@Suite struct WebhookClientTests {
    @Test func aDeliveryIsTheStoredBodySignedAsStandardWebhooksSaysOverTLS() async throws {
        try await withWebhookReceiver(tls: true) { receiver in
            let secret = WebhookFixture.secret()
            try receiver.setSecret(secret.text, for: "/hooks/a?team=1")
            let delivery = WebhookFixture.delivery(
                to: WebhookFixture.url(receiver, path: "/hooks/a?team=1"), secret: secret)
            let now = Date()
            let answer = try await WebhookFixture.client(receiver).send(delivery, at: now)
            #expect(answer == .delivered)
            let request = try #require(try await receiver.requests(atLeast: 1, path: "/hooks/a?team=1").first)
            #expect(request.verification == .verified)
            #expect(request.method == "POST")
            #expect(request.body == delivery.body)
            #expect(request.headers["webhook-id"] == delivery.id)
            #expect(request.headers["webhook-timestamp"] == String(Int(now.timeIntervalSince1970)))
            #expect(request.headers["webhook-signature"]?.hasPrefix("v1,") == true)
            #expect(request.headers["content-type"] == "application/json")
            #expect(request.headers["host"] == "localhost:\(receiver.port)")
            // TLS names the URL's host, not the address connected to.
            #expect(request.sni == "localhost")
        }
    }

    @Test func aRetriedDeliveryKeepsItsIdWithANewTimestampAndBothSignaturesVerify() async throws {
        try await withWebhookReceiver { receiver in
            let secret = WebhookFixture.secret()
            try receiver.setSecret(secret.text, for: "/hooks/retried")
            try receiver.setAnswers(["503", "200"], for: "/hooks/retried")
            let delivery = WebhookFixture.delivery(to: receiver.url + "/hooks/retried", secret: secret)
            let client = try WebhookFixture.client(receiver)
            let first = Date()
            #expect(await client.send(delivery, at: first) == .retry(reason: "HTTP 503", retryAfter: nil))
            #expect(await client.send(delivery, at: first.addingTimeInterval(7)) == .delivered)
            let requests = try await receiver.requests(atLeast: 2, path: "/hooks/retried")
            #expect(requests.map(\.verification) == [.verified, .verified])
            #expect(requests.map { $0.headers["webhook-id"] } == [delivery.id, delivery.id])
            let timestamps = requests.compactMap { $0.headers["webhook-timestamp"].flatMap { Int($0) } }
            #expect(timestamps.count == 2 && timestamps[1] - timestamps[0] == 7)
            #expect(requests[0].headers["webhook-signature"] != requests[1].headers["webhook-signature"])
        }
    }

    @Test func aTwoHundredAnswerIsDeliveredA410IsGoneAndAnyOtherIsRetriedWithItsRetryAfter() async throws {
        try await withWebhookReceiver { receiver in
            let answers = ["/ok": "204", "/gone": "410", "/busy": "503 retry-after=120", "/refused": "400"]
            for (path, answer) in answers {
                try receiver.setAnswers([answer], for: path)
            }
            let client = try WebhookFixture.client(receiver)
            let secret = WebhookFixture.secret()
            func send(_ path: String) async -> WebhookAnswer {
                await client.send(WebhookFixture.delivery(to: receiver.url + path, secret: secret), at: Date())
            }
            #expect(await send("/ok") == .delivered)
            #expect(await send("/gone") == .gone)
            #expect(await send("/busy") == .retry(reason: "HTTP 503", retryAfter: .seconds(120)))
            #expect(await send("/refused") == .retry(reason: "HTTP 400", retryAfter: nil))
        }
    }

    @Test func aRedirectIsAFailedTryAndIsNotFollowed() async throws {
        try await withWebhookReceiver { receiver in
            try receiver.setAnswers(["302"], for: "/hooks/moved")
            let delivery = WebhookFixture.delivery(to: receiver.url + "/hooks/moved", secret: WebhookFixture.secret())
            let answer = try await WebhookFixture.client(receiver).send(delivery, at: Date())
            #expect(answer == .retry(reason: "HTTP 302", retryAfter: nil))
            try await Task.sleep(for: .milliseconds(300))
            #expect(try receiver.recorded().map(\.path) == ["/hooks/moved"])
        }
    }

    @Test func noAnswerWithinTheTimeoutIsRetried() async throws {
        try await withWebhookReceiver { receiver in
            try receiver.setAnswers(["slow"], for: "/hooks/slow")
            let delivery = WebhookFixture.delivery(to: receiver.url + "/hooks/slow", secret: WebhookFixture.secret())
            let started = ContinuousClock.now
            let answer = try await WebhookFixture.client(receiver, answerTimeout: .seconds(1)).send(delivery, at: Date())
            #expect(answer == .retry(reason: "timeout", retryAfter: nil))
            // Its own timeout, not the receiver's minute (a loaded machine delays the timer, not by that much).
            #expect(started.duration(to: .now) < .seconds(30))
        }
    }

    /// A lookup that never answers ends the try at its timeout too: the try stays within its bound, and within its
    /// claim's lease, whatever DNS does.
    @Test func aLookupThatDoesNotAnswerWithinTheTimeoutIsRetried() async throws {
        struct SilentResolver: HostResolver {
            func addresses(of host: String) async throws -> [[UInt8]] {
                try await Task.sleep(for: .seconds(60))
                return []
            }
        }
        try await withWebhookReceiver { receiver in
            let client = try WebhookClient(resolver: SilentResolver(), answerTimeout: .seconds(1))
            let delivery = WebhookFixture.delivery(
                to: WebhookFixture.url(receiver, path: "/hooks/a"), secret: WebhookFixture.secret())
            let started = ContinuousClock.now
            #expect(await client.send(delivery, at: Date()) == .retry(reason: "timeout", retryAfter: nil))
            #expect(started.duration(to: .now) < .seconds(30))
            #expect(try receiver.recorded().isEmpty)
        }
    }

    /// A host that resolves to a link-local address besides its own is refused before any connection: the receiver,
    /// reachable at the other address, hears nothing.
    @Test(arguments: [
        [169, 254, 169, 254],
        [0xFE, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1],
        [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 169, 254, 1, 1],
    ] as [[UInt8]])
    func aHostThatResolvesToALinkLocalAddressIsRefusedWithoutAConnection(linkLocal: [UInt8]) async throws {
        try await withWebhookReceiver { receiver in
            let client = try WebhookFixture.client(receiver, resolver: ["localhost": [WebhookFixture.loopback, linkLocal]])
            let delivery = WebhookFixture.delivery(
                to: WebhookFixture.url(receiver, path: "/hooks/rebound"), secret: WebhookFixture.secret())
            let answer = await client.send(delivery, at: Date())
            #expect(answer == .retry(reason: "refused: the host resolves to a link-local address", retryAfter: nil))
            try await Task.sleep(for: .milliseconds(300))
            #expect(try receiver.recorded().isEmpty)
        }
    }

    /// The address connected to is one the client checked: it looks the host up once per try, so a second lookup
    /// (DNS rebinding) cannot answer otherwise between the check and the connection.
    @Test func eachTryLooksTheHostUpOnceAndConnectsToWhatItChecked() async throws {
        try await withWebhookReceiver { receiver in
            let resolver = WebhookFixture.CountingResolver(addresses: [WebhookFixture.loopback])
            let client = try WebhookClient(resolver: resolver)
            let delivery = WebhookFixture.delivery(
                to: WebhookFixture.url(receiver, path: "/hooks/once"), secret: WebhookFixture.secret())
            #expect(await client.send(delivery, at: Date()) == .delivered)
            #expect(resolver.lookups == 1)
        }
    }

    @Test func aReceiverWhoseCertificateIsNotTrustedHearsNothing() async throws {
        try await withWebhookReceiver(tls: true) { receiver in
            // The system's roots only: the receiver's test CA is not among them.
            let client = try WebhookClient(resolver: WebhookFixture.TableResolver(table: ["localhost": [WebhookFixture.loopback]]))
            let delivery = WebhookFixture.delivery(
                to: WebhookFixture.url(receiver, path: "/hooks/a"), secret: WebhookFixture.secret())
            let answer = await client.send(delivery, at: Date())
            guard case .retry = answer else {
                Issue.record("expected a retry, got \(answer)")
                return
            }
            #expect(try receiver.recorded().isEmpty)
        }
    }
}
