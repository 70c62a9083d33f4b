import Foundation
import TouchstoneProtocol
import TouchstoneStorage

/// Sends data messages through FCM HTTP v1: `POST /v1/projects/{project_id}/messages:send` with the service account's
/// OAuth access token.
struct FCMClient: Sendable {
    let connection: PushConnection
    let endpoints: PushEndpoints
    let accessTokens: GoogleAccessTokens
    let clock: @Sendable () -> Date

    /// One try: the message with the account's access token, and once more with a renewed token after a 401.
    func send(_ push: QueuedPush, account: FCMServiceAccount) async -> PushAnswer {
        var outcome = await accessTokens.token(for: account)
        for renewal in [false, true] {
            if renewal {
                guard case .token(let refused) = outcome else { break }
                outcome = await accessTokens.renew(after: refused, for: account)
            }
            switch outcome {
            case .unavailable(let answer):
                return answer
            case .token(let token):
                if case .answer(let answer) = await attempt(push, account: account, accessToken: token) {
                    return answer
                }
            }
        }
        return .failed(reason: "UNAUTHENTICATED")
    }

    /// What one request came to.
    private enum Attempt {
        case answer(PushAnswer)
        /// 401: renew the access token and try again.
        case unauthenticated
    }

    private func attempt(_ push: QueuedPush, account: FCMServiceAccount, accessToken: String) async -> Attempt {
        await OutboundSpan.around(.fcm, url: endpoints.fcm) { span in
            let exchange = await connection.post(
                endpoints.fcm + "/v1/projects/" + PercentEncoding.unreserved(account.projectId) + "/messages:send",
                headers: [("authorization", "Bearer " + accessToken)], json: FCMMessage(push, now: clock()))
            span.recordAnswer(exchange)
            return Self.attempt(exchange)
        }
    }

    /// FCM's answer as the outbox acts on it.
    private static func attempt(_ exchange: PostExchange) -> Attempt {
        switch exchange {
        case .noAnswer(let reason):
            return .answer(.retry(reason: reason, retryAfter: nil))
        case .answered(let status, let retryAfter, let body):
            let error = PushServiceAnswer.fcmError(body)
            let reason = error?.status ?? "HTTP \(status)"
            let gone = error?.errorCodes.first { $0 == "UNREGISTERED" || $0 == "SENDER_ID_MISMATCH" }
            switch status {
            case 200:
                return .answer(.delivered)
            case 401:
                return .unauthenticated
            case 404:
                return .answer(.unregistered(reason: gone ?? reason))
            case 403 where gone != nil:
                return .answer(.unregistered(reason: gone ?? reason))
            case 429, 500...599:
                return .answer(.retry(reason: reason, retryAfter: retryAfter))
            default:
                return .answer(.failed(reason: reason))
            }
        }
    }
}
