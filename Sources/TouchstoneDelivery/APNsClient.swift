import Foundation
import Logging
import TouchstoneProtocol
import TouchstoneStorage

/// Sends alerts through APNs: `POST /3/device/{token}` over HTTP/2 with a provider token of the app's key.
struct APNsClient: Sendable {
    let connection: PushConnection
    let endpoints: PushEndpoints
    let providerTokens: APNsProviderTokens
    let clock: @Sendable () -> Date

    /// One try: the push with the key's current provider token, and once more with a renewed token when APNs says it
    /// expired.
    func send(_ push: QueuedPush, credentials: APNsCredentials) async -> PushAnswer {
        guard let topic = push.registration.topic else { return .failed(reason: "no apns-topic in the registration") }
        do {
            let token = try providerTokens.token(for: credentials, now: clock())
            guard case .answer(let answer) = await attempt(push, topic: topic, providerToken: token.jwt) else {
                switch try providerTokens.renew(after: token, for: credentials, now: clock()) {
                case .renewed(let renewed):
                    let second = await attempt(push, topic: topic, providerToken: renewed.jwt)
                    guard case .answer(let answer) = second else { return .failed(reason: "ExpiredProviderToken") }
                    return answer
                case .tooSoon(let wait):
                    return .retry(reason: "ExpiredProviderToken", retryAfter: wait)
                }
            }
            return answer
        } catch {
            return .failed(reason: "the APNs key is not a P-256 private key")
        }
    }

    /// What one request came to.
    private enum Attempt {
        case answer(PushAnswer)
        /// 403 `ExpiredProviderToken`: renew the token and try again.
        case expiredProviderToken
    }

    private func attempt(_ push: QueuedPush, topic: String, providerToken: String) async -> Attempt {
        let origin =
            push.registration.environment == .development ? endpoints.apnsDevelopment : endpoints.apnsProduction
        let notice = push.reference.kind == .notice
        return await OutboundSpan.around(.apns, url: origin) { span in
            let exchange = await connection.post(
                origin + "/3/device/" + PercentEncoding.unreserved(push.registration.token),
                headers: [
                    ("authorization", "bearer " + providerToken),
                    ("apns-topic", topic),
                    ("apns-push-type", "alert"),
                    ("apns-priority", notice ? "5" : "10"),
                    ("apns-expiration", String(Int64(push.keptUntil(triedAt: clock()).timeIntervalSince1970.rounded(.down)))),
                    ("apns-collapse-id", push.reference.id),
                ],
                json: APNsPayload(push.reference))
            span.recordAnswer(exchange)
            return Self.attempt(exchange)
        }
    }

    /// APNs' answer as the outbox acts on it.
    private static func attempt(_ exchange: PostExchange) -> Attempt {
        switch exchange {
        case .noAnswer(let reason):
            return .answer(.retry(reason: reason, retryAfter: nil))
        case .answered(let status, let retryAfter, let body):
            let reason = PushServiceAnswer.apnsReason(body)
            switch (status, reason) {
            case (200, _):
                return .answer(.delivered)
            case (400, "BadDeviceToken"?), (400, "DeviceTokenNotForTopic"?), (410, _):
                return .answer(.unregistered(reason: reason ?? "HTTP \(status)"))
            case (403, "ExpiredProviderToken"?):
                return .expiredProviderToken
            case (429, _), (500...599, _):
                return .answer(.retry(reason: reason ?? "HTTP \(status)", retryAfter: retryAfter))
            default:
                return .answer(.failed(reason: reason ?? "HTTP \(status)"))
            }
        }
    }
}
