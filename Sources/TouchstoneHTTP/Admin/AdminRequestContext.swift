import Foundation
import Hummingbird
import NIOCore
import TouchstoneDomain

/// The request context of the admin API: the socket peer's address (the admin listener is reached directly, never
/// through the public proxies), and the admin token's caller (``AdminAuthenticator``).
public struct AdminRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The socket peer's address, for the audit events of the changes it asks for.
    let clientAddress: String
    /// The admin token's caller, on every route but the OpenAPI document's.
    package var caller: AdminCaller?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        clientAddress = source.channel.remoteAddress?.ipAddress ?? "unknown"
    }

    /// Bodies over 64 KiB are refused with 413, as on the public API.
    public var maxUploadSize: Int { 64 * 1024 }

    /// The route's parameter `name`, percent-decoded: an id may hold any character (an app's client id is the
    /// operator's choice), which a client percent-encodes in the path.
    func parameter(_ name: String) throws -> String {
        let raw = try parameters.require(name)
        return raw.removingPercentEncoding ?? raw
    }

    /// The admin token's caller; 401 on a route the authenticator does not guard (a wiring mistake, never the
    /// client's).
    func requireCaller() throws -> AdminCaller {
        guard let caller else { throw ProblemError.unauthorized }
        return caller
    }
}
