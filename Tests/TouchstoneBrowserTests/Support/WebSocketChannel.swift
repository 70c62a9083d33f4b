import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

/// A client's WebSocket (RFC 6455) for text messages, on swift-nio's `NIOWebSocket`: the HTTP/1.1 upgrade, then masked
/// frames out and whole messages in.
struct WebSocketChannel: Sendable {
    /// A URL that is not `ws://HOST:PORT/…`, or a server that did not upgrade.
    struct Refused: Error, CustomStringConvertible {
        let description: String
    }

    private enum Upgrade: Sendable {
        case upgraded(NIOAsyncChannel<WebSocketFrame, WebSocketFrame>)
        case refused
    }

    private let channel: NIOAsyncChannel<WebSocketFrame, WebSocketFrame>

    /// Connects to `url` and upgrades the connection to a WebSocket.
    /// - Parameter maxMessageSize: the largest message taken, whether in one frame or several.
    static func connect(to url: String, maxMessageSize: Int) async throws -> WebSocketChannel {
        guard let components = URLComponents(string: url), components.scheme == "ws", let host = components.host,
            let port = components.port
        else { throw Refused(description: "not a ws://HOST:PORT/… URL: \(url)") }
        let target = (components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath)
            + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
        let upgrade = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    let upgrader = NIOTypedWebSocketClientUpgrader<Upgrade>(maxFrameSize: maxMessageSize) { channel, _ in
                        channel.eventLoop.makeCompletedFuture {
                            // A message sent in several frames arrives as one.
                            try channel.pipeline.syncOperations.addHandler(
                                NIOWebSocketFrameAggregator(
                                    minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: .max,
                                    maxAccumulatedFrameSize: maxMessageSize))
                            return .upgraded(try NIOAsyncChannel(wrappingChannelSynchronously: channel))
                        }
                    }
                    // No Origin header: DevTools refuses a WebSocket whose Origin it was not told to allow.
                    let request = HTTPRequestHead(
                        version: .http1_1, method: .GET, uri: target,
                        headers: ["Host": "\(host):\(port)", "Content-Length": "0"])
                    let configuration = NIOTypedHTTPClientUpgradeConfiguration<Upgrade>(
                        upgradeRequestHead: request, upgraders: [upgrader],
                        notUpgradingCompletionHandler: { channel in
                            channel.close(promise: nil)
                            return channel.eventLoop.makeSucceededFuture(.refused)
                        })
                    return try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(
                        configuration: .init(upgradeConfiguration: configuration))
                }
            }
        switch try await upgrade.get() {
        case .upgraded(let channel): return WebSocketChannel(channel: channel)
        case .refused: throw Refused(description: "\(url) did not upgrade to a WebSocket")
        }
    }

    /// Sends each of `outgoing` as a text message and hands each text message received to `receive`, until `outgoing`
    /// ends (then a close frame says goodbye), the server closes, or the task is cancelled; then closes the connection.
    func exchange(sending outgoing: AsyncStream<String>, receive: @escaping @Sendable (String) -> Void) async throws {
        try await channel.executeThenClose { inbound, outbound in
            try await withThrowingTaskGroup(of: Void.self) { directions in
                directions.addTask {
                    for await text in outgoing {
                        try await outbound.write(Self.frame(.text, ByteBuffer(string: text)))
                    }
                    var reason = ByteBuffer()
                    reason.write(webSocketErrorCode: .normalClosure)
                    try await outbound.write(Self.frame(.connectionClose, reason))
                }
                directions.addTask {
                    for try await frame in inbound {
                        switch frame.opcode {
                        case .text: receive(String(buffer: frame.unmaskedData))
                        case .ping: try await outbound.write(Self.frame(.pong, frame.unmaskedData))
                        case .connectionClose: return
                        default: continue
                        }
                    }
                }
                try await directions.next()
                directions.cancelAll()
            }
        }
    }

    /// A frame from the client: masked, as RFC 6455 §5.3 requires of every frame a client sends.
    private static func frame(_ opcode: WebSocketOpcode, _ data: ByteBuffer) -> WebSocketFrame {
        WebSocketFrame(fin: true, opcode: opcode, maskKey: .random(), data: data)
    }
}
