import Hummingbird
import NIOCore

/// The request context of every route: the peer address and the 64 KiB body limit.
public struct TouchstoneRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The socket peer's address, when the channel has one.
    public let peerAddress: String?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        peerAddress = source.channel.remoteAddress?.ipAddress
    }

    /// Bodies over 64 KiB are refused with 413.
    public var maxUploadSize: Int { 64 * 1024 }
}
