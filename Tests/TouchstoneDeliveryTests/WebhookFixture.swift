import Foundation
import Synchronization
import TouchstoneProtocol
import TouchstoneStorage
import TouchstoneTestSupport

@testable import TouchstoneDelivery

/// Deliveries of the webhook tests, a resolver that answers from a table, and the client under test pointed at a
/// ``WebhookReceiver``.
enum WebhookFixture {
    /// Answers each host from its table; any other host does not resolve.
    struct TableResolver: HostResolver {
        struct Unknown: Error {}

        let table: [String: [[UInt8]]]

        func addresses(of host: String) async throws -> [[UInt8]] {
            guard let addresses = table[host] else { throw Unknown() }
            return addresses
        }
    }

    /// Answers every host with `addresses`, counting the lookups.
    final class CountingResolver: HostResolver {
        private let addresses: [[UInt8]]
        private let count = Mutex(0)

        init(addresses: [[UInt8]]) {
            self.addresses = addresses
        }

        var lookups: Int { count.withLock { $0 } }

        func addresses(of host: String) async throws -> [[UInt8]] {
            count.withLock { $0 += 1 }
            return addresses
        }
    }

    static let loopback: [UInt8] = [127, 0, 0, 1]

    /// A `webhook.test` event's delivery to `url`, queued now, with `secret`.
    static func delivery(to url: String, secret: WebhookSecret, attempts: Int = 0) -> QueuedWebhook {
        let now = Date()
        let body = WebhookEventBody(type: .test, timestamp: now, data: WebhookEventData(userId: nil))
        return QueuedWebhook(
            id: "msg_" + UUID().uuidString.lowercased(), webhookId: "whk_1", url: url, secret: secret.bytes,
            type: WebhookEvent.test.rawValue, body: body.text, queuedAt: now, expiresAt: now.addingTimeInterval(86_400),
            attempts: attempts)
    }

    /// A new secret of 32 random bytes.
    static func secret() -> WebhookSecret {
        WebhookSecret(bytes: (0..<WebhookSecret.byteCount).map { _ in UInt8.random(in: 0...255) })
    }

    /// The client with `resolver` (`localhost` is 127.0.0.1 by default), trusting `receiver`'s CA when it has TLS.
    static func client(
        _ receiver: WebhookReceiver, resolver: [String: [[UInt8]]] = ["localhost": [loopback], "127.0.0.1": [loopback]],
        answerTimeout: Duration = .seconds(10)
    ) throws -> WebhookClient {
        try WebhookClient(
            resolver: TableResolver(table: resolver),
            insecureTrustRootsPEM: receiver.url.hasPrefix("https:") ? try receiver.caPEM() : nil,
            answerTimeout: answerTimeout)
    }

    /// `receiver`'s URL for `path` with `host` in place of 127.0.0.1.
    static func url(_ receiver: WebhookReceiver, host: String = "localhost", path: String) -> String {
        receiver.url.replacingOccurrences(of: "127.0.0.1", with: host) + path
    }
}
