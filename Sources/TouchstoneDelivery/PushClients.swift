import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOSSL
import TouchstoneStorage

/// The push gateway of the server: APNs and FCM HTTP v1 over one HTTP client (HTTP/2 where the service offers it, TLS,
/// redirects never followed), with their token caches.
///
/// Its owner calls ``shutdown()`` once, after the last send (``PushDelivery`` does, when its sender has stopped).
package final class PushClients: PushGateway {
    private let http: HTTPClient
    private let apns: APNsClient
    private let fcm: FCMClient
    private let logger: Logger

    /// - Parameters:
    ///   - endpoints: where pushes go (``PushEndpoints/live``, or the test overrides of `serve`).
    ///   - logger: failures are logged with their reason, never a device token or a credential.
    ///   - clock: the time of provider tokens, access tokens and FCM's `ttl`.
    ///   - answerTimeout: how long a try waits for an answer before it is retried (10 s; tests shorten it).
    package init(
        endpoints: PushEndpoints = .live, logger: Logger, clock: @escaping @Sendable () -> Date = { Date() },
        answerTimeout: Duration = .seconds(10)
    ) {
        var tls = TLSConfiguration.makeClientConfiguration()
        if !endpoints.additionalTrustRoots.isEmpty {
            tls.additionalTrustRoots = [.certificates(endpoints.additionalTrustRoots)]
        }
        let timeout = TimeAmount(answerTimeout)
        var configuration = HTTPClient.Configuration(
            tlsConfiguration: tls, redirectConfiguration: .disallow,
            timeout: HTTPClient.Configuration.Timeout(connect: timeout, read: timeout))
        configuration.httpVersion = .automatic
        http = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration.untraced())
        let connection = PushConnection(http: http, answerTimeout: answerTimeout)
        apns = APNsClient(connection: connection, endpoints: endpoints, providerTokens: APNsProviderTokens(), clock: clock)
        fcm = FCMClient(
            connection: connection, endpoints: endpoints,
            accessTokens: GoogleAccessTokens(connection: connection, clock: clock), clock: clock)
        self.logger = logger
    }

    /// Sends `push` to the service its registration names; `.failed` when the app has no credentials for it.
    package func send(_ push: QueuedPush, credentials: PushCredentials) async -> PushAnswer {
        let provider = push.registration.provider
        let answer: PushAnswer
        switch provider {
        case .apns:
            if let apnsCredentials = credentials.apns {
                answer = await apns.send(push, credentials: apnsCredentials)
            } else {
                answer = .failed(reason: "the app has no APNs credentials")
            }
        case .fcm:
            if let account = credentials.fcm {
                answer = await fcm.send(push, account: account)
            } else {
                answer = .failed(reason: "the app has no FCM service account")
            }
        }
        log(answer, push: push)
        return answer
    }

    /// Closes the HTTP client's connections; no push can be sent after it.
    package func shutdown() async throws {
        try await http.shutdown()
    }

    private func log(_ answer: PushAnswer, push: QueuedPush) {
        let metadata: Logger.Metadata = [
            "push": .string(push.id), "provider": .string(push.registration.provider.rawValue),
            "device": .string(push.reference.deviceId),
        ]
        switch answer {
        case .delivered:
            logger.debug("push delivered", metadata: metadata)
        case .unregistered(let reason):
            logger.notice("push token unregistered", metadata: metadata.merging(["reason": .string(reason)]) { $1 })
        case .retry(let reason, _):
            logger.info("push to be retried", metadata: metadata.merging(["reason": .string(reason)]) { $1 })
        case .failed(let reason):
            logger.warning("push failed", metadata: metadata.merging(["reason": .string(reason)]) { $1 })
        }
    }
}
