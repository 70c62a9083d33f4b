import Hummingbird
import NIOCore
import NIOHTTPTypes

/// `Connection: close` (RFC 9112 §9.6): the answer to a request whose `Connection` header lists `close` (a
/// case-insensitive token list, such as `keep-alive, Close`) carries `Connection: close`, and once it is written the
/// server closes its side of the connection; the client still reads the whole answer, and NIO drops any request that
/// follows it.
///
/// Hummingbird ends a connection only after a request whose header is exactly `close`, and without saying so in the
/// answer; a keep-alive client then reuses a connection the server is closing. One handler per connection, between the
/// HTTP codec and Hummingbird's connection state.
final class ConnectionCloseHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// Whether each request read and not answered yet asked to close, oldest first: HTTP/1.1 answers in order.
    private var asksToClose = CircularBuffer<Bool>()
    /// Whether the answer being written is the connection's last.
    private var isLastAnswer = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(let request) = unwrapInboundIn(data) {
            asksToClose.append(Self.listsClose(request.headerFields))
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var response) where response.status.kind != .informational:
            isLastAnswer = asksToClose.popFirst() ?? false
            guard isLastAnswer else { return context.write(data, promise: promise) }
            response.headerFields[.connection] = "close"
            context.write(wrapOutboundOut(.head(response)), promise: promise)
        case .end where isLastAnswer:
            context.writeAndFlush(data, promise: promise)
            // The write side only, once the answer is out: closing both would reset a connection the client is still
            // sending on, and the reset could destroy the answer before the client reads it.
            context.close(mode: .output, promise: nil)
        case .head, .body, .end:
            context.write(data, promise: promise)
        }
    }

    /// Whether the `Connection` fields list the `close` option.
    static func listsClose(_ fields: HTTPFields) -> Bool {
        fields[values: .connection].contains { value in
            value.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces).lowercased() == "close" }
        }
    }
}
