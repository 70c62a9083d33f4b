import Hummingbird
import NIOCore
import TouchstoneDomain

/// The request context of every route: the client's address, worked out once (``ClientAddressMiddleware``), and the
/// callers the authenticators proved (``BearerAuthenticator``, ``APIKeyAuthenticator``, ``DeviceAuthenticator``).
public struct TouchstoneRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The socket peer's address, when the channel has one.
    public let peerAddress: String?
    /// The client's address: the peer, or the last `X-Forwarded-For` hop behind a trusted proxy.
    var clientAddress: String
    /// The caller of a route behind ``BearerAuthenticator``.
    package var identity: AccessIdentity?
    /// The app of a route behind ``APIKeyAuthenticator``.
    package var app: AuthenticatedApp?
    /// The device of a route behind ``DeviceAuthenticator``.
    package var device: AuthenticatedDevice?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        peerAddress = source.channel.remoteAddress?.ipAddress
        clientAddress = peerAddress ?? "unknown"
    }

    /// Bodies over 64 KiB are refused with 413.
    public var maxUploadSize: Int { 64 * 1024 }

    /// The Bearer caller; 401 on a route no authenticator guards (a wiring mistake, never the client's).
    func requireIdentity() throws -> AccessIdentity {
        guard let identity else { throw ProblemError.unauthorized }
        return identity
    }

    /// The API key's app; 401 on a route no authenticator guards.
    func requireApp() throws -> AuthenticatedApp {
        guard let app else { throw ProblemError.invalidAPIKey }
        return app
    }

    /// The device that signed the request; 401 on a route no authenticator guards.
    func requireDevice() throws -> AuthenticatedDevice {
        guard let device else { throw ProblemError(.deviceProofRequired) }
        return device
    }
}
