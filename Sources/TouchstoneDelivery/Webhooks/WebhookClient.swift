import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import TouchstoneProtocol
import TouchstoneStorage

/// Sends webhook deliveries as the Standard Webhooks specification describes them (PROTOCOL "Webhooks"): `POST url`
/// with the stored body exactly, `webhook-id` (the event's id, the same on every try), `webhook-timestamp` (this try's
/// Unix seconds), `webhook-signature: v1,<base64 HMAC-SHA256>` and `content-type: application/json`; an answer within
/// 10 s, redirects never followed, and never to a link-local address (checked on the address connected to).
package struct WebhookClient: WebhookGateway {
    private let connection: WebhookConnection

    /// - Parameters:
    ///   - resolver: finds the addresses of a URL's host (the system's; a stand-in in tests).
    ///   - insecureTrustRootsPEM: certificates (PEM) trusted beside the system's roots. ⚠️ For tests only: a trusted
    ///     root of one's own lets its holder read every delivery.
    ///   - answerTimeout: how long a try waits, from the lookup to the answer, before it is retried (10 s).
    /// - Throws: for PEM text that holds no certificate, or a TLS context that cannot be made.
    package init(
        resolver: any HostResolver = SystemHostResolver(), insecureTrustRootsPEM: String? = nil,
        answerTimeout: Duration = .seconds(10)
    ) throws {
        var tls = TLSConfiguration.makeClientConfiguration()
        if let insecureTrustRootsPEM {
            tls.additionalTrustRoots = [.certificates(try NIOSSLCertificate.fromPEMBytes(Array(insecureTrustRootsPEM.utf8)))]
        }
        connection = WebhookConnection(
            resolver: resolver, tls: try NIOSSLContext(configuration: tls), answerTimeout: answerTimeout,
            group: MultiThreadedEventLoopGroup.singleton)
    }

    package func send(_ webhook: QueuedWebhook, at now: Date) async -> WebhookAnswer {
        await OutboundSpan.around(.webhook, url: webhook.url) { span in
            let exchange = await post(webhook, at: now)
            span.recordAnswer(exchange)
            switch exchange {
            case .answered(let status, let retryAfter, _): return WebhookAnswer(status: status, retryAfter: retryAfter)
            case .noAnswer(let reason): return .retry(reason: reason, retryAfter: nil)
            }
        }
    }

    /// The signed POST of one try.
    private func post(_ webhook: QueuedWebhook, at now: Date) async -> PostExchange {
        let target: WebhookTarget
        do {
            target = try WebhookTarget(url: webhook.url)
        } catch {
            return .noAnswer(reason: "refused: the URL breaks the webhook rules")
        }
        let body = Array(webhook.body.utf8)
        let timestamp = Int(now.timeIntervalSince1970.rounded(.down))
        let signature = WebhookSigner(key: webhook.secret).signature(id: webhook.id, timestamp: timestamp, body: body)
        return await connection.post(
            target,
            headers: [
                ("webhook-id", webhook.id), ("webhook-timestamp", String(timestamp)), ("webhook-signature", signature),
                ("content-type", "application/json"),
            ],
            body: body)
    }
}
