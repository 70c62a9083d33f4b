import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// The load generator's HTTP client: plain HTTP/1.1 on SwiftNIO channels, one request at a time per keep-alive
/// connection, connections reused from an idle list (so that no login pays for a TCP handshake).
///
/// It is as lean as a client can be so that, on a machine shared with the server, the bench measures the server:
/// no redirects, no TLS, no decompression, no per-request configuration.
public final class BenchHTTP: Sendable {
    /// One answer: the status and the body.
    struct Answer: Sendable {
        var status: Int
        var body: ByteBuffer
        /// Whether the server keeps the connection open for the next request.
        var keepAlive: Bool
    }

    private let host: String
    private let port: Int
    /// The path the base URL puts before every request's.
    private let pathPrefix: String
    /// `Host` and `Content-Type`, the same on every request: made once.
    private let headers: HTTPHeaders
    private let idle = Mutex<[Channel]>([])

    /// - Parameter baseURL: where the server listens: `http://HOST[:PORT][/PREFIX]`.
    public init(baseURL: String) throws {
        guard let url = URL(string: baseURL), url.scheme == "http", let host = url.host, !host.isEmpty else {
            throw BenchError(
                "--server must be an http URL such as http://127.0.0.1:8080 (the bench speaks plain HTTP/1.1), not \(baseURL)")
        }
        self.host = host
        port = url.port ?? 80
        headers = ["Host": url.port.map { "\(host):\($0)" } ?? host, "Content-Type": "application/json"]
        var prefix = url.path
        while prefix.hasSuffix("/") { prefix.removeLast() }
        pathPrefix = prefix
    }

    /// `POST path` with a JSON body.
    func post(_ path: String, json body: String, timeout: TimeAmount = .seconds(30)) async throws -> Answer {
        var headers = headers
        headers.add(name: "Content-Length", value: String(body.utf8.count))
        let head = HTTPRequestHead(version: .http1_1, method: .POST, uri: pathPrefix + path, headers: headers)
        let channel = try await connection()
        let answer = channel.eventLoop.makePromise(of: Answer.self)
        // A request that outlives its timeout closes its connection, which fails the answer.
        let deadline = channel.eventLoop.scheduleTask(in: timeout) { channel.close(promise: nil) }
        // A write that never reaches the handler (the connection closed meanwhile) fails the answer here; completing
        // it a second time, after the handler did, is ignored.
        channel.writeAndFlush(Exchange(head: head, body: ByteBuffer(string: body), answer: answer)).whenFailure {
            answer.fail($0)
        }
        do {
            let result = try await answer.futureResult.get()
            deadline.cancel()
            if result.keepAlive {
                idle.withLock { $0.append(channel) }
            } else {
                channel.close(promise: nil)
            }
            return result
        } catch {
            deadline.cancel()
            channel.close(promise: nil)
            throw error
        }
    }

    /// `POST path` with a body encoded by `JSONEncoder` (enrolment; not on the timed path).
    func post<Body: Encodable>(_ path: String, _ body: Body) async throws -> Answer {
        try await post(path, json: String(decoding: try JSONEncoder().encode(body), as: UTF8.self))
    }

    /// Closes the idle connections.
    public func shutdown() async throws {
        let channels = idle.withLock { channels in
            defer { channels.removeAll() }
            return channels
        }
        for channel in channels {
            try? await channel.close()
        }
    }

    /// An idle open connection, or a new one.
    private func connection() async throws -> Channel {
        while let channel = idle.withLock({ $0.popLast() }) {
            if channel.isActive { return channel }
        }
        return try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(ExchangeHandler())
                }
            }
            .connect(host: host, port: port)
            .get()
    }
}

/// A request on its way out, with the promise its answer completes.
private struct Exchange: Sendable {
    var head: HTTPRequestHead
    var body: ByteBuffer
    var answer: EventLoopPromise<BenchHTTP.Answer>
}

/// Writes each request and completes its promise with the answer that comes back, in order; a connection that closes
/// or fails fails every request still waiting.
private final class ExchangeHandler: ChannelDuplexHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundIn = Exchange
    typealias OutboundOut = HTTPClientRequestPart

    private var waiting = CircularBuffer<EventLoopPromise<BenchHTTP.Answer>>()
    private var status = 0
    private var keepAlive = true
    private var body = ByteBuffer()
    private var closed = false

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let exchange = unwrapOutboundIn(data)
        guard !closed else {
            exchange.answer.fail(ChannelError.ioOnClosedChannel)
            promise?.fail(ChannelError.ioOnClosedChannel)
            return
        }
        waiting.append(exchange.answer)
        context.write(wrapOutboundOut(.head(exchange.head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(exchange.body))), promise: nil)
        context.write(wrapOutboundOut(.end(nil)), promise: promise)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            status = Int(head.status.code)
            keepAlive = head.isKeepAlive
            body.clear()
        case .body(var part):
            body.writeBuffer(&part)
        case .end:
            let answer = BenchHTTP.Answer(status: status, body: body, keepAlive: keepAlive)
            body = ByteBuffer()
            waiting.popFirst()?.succeed(answer)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        failWaiting(ChannelError.eof)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        failWaiting(error)
        context.close(promise: nil)
    }

    private func failWaiting(_ error: any Error) {
        closed = true
        while let answer = waiting.popFirst() {
            answer.fail(error)
        }
    }
}

extension BenchHTTP.Answer {
    /// Decodes the body.
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONDecoder().decode(type, from: Data(body.readableBytesView))
    }

    /// The problem `code` of an error answer, or `http_STATUS` when the body has none.
    var errorCode: String {
        struct Problem: Decodable { var code: String }
        return (try? decode(Problem.self).code) ?? "http_\(status)"
    }
}
