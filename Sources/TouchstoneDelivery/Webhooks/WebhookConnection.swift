import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import Synchronization
import TouchstoneProtocol

/// One webhook POST over HTTP/1.1 to exactly the address it checked: it resolves the host itself, refuses the host
/// when an address of it is link-local, and connects to one of the addresses it checked (no second lookup between the
/// check and the connection, so DNS rebinding cannot slip a link-local address in). Over `https` the URL's host name
/// is the TLS server name and the certificate must chain to a trusted root and name it (NIOSSL's check, which also
/// takes a certificate naming the address connected to). Redirects are answers like any other: never followed.
struct WebhookConnection: Sendable {
    let resolver: any HostResolver
    /// The client TLS context: the system's roots, and in tests a test CA.
    let tls: NIOSSLContext
    /// How long one try may take, from the lookup to the answer's head.
    let answerTimeout: Duration
    let group: any EventLoopGroup

    /// POSTs `body` to `target` and waits at most ``answerTimeout`` for the answer's status.
    /// - Parameter headers: sent as given, after `host` and before `content-length` and `connection: close`.
    /// - Returns: the status and `Retry-After`, or no answer with a reason that never names the URL or a header.
    func post(_ target: WebhookTarget, headers: [(String, String)], body: [UInt8]) async -> PostExchange {
        let deadline = NIODeadline.now() + TimeAmount(answerTimeout)
        let addresses: [[UInt8]]
        do {
            guard let found = try await lookUp(target.host, within: answerTimeout) else {
                return .noAnswer(reason: "timeout")
            }
            addresses = found
        } catch {
            return .noAnswer(reason: "the host does not resolve")
        }
        guard !addresses.isEmpty else { return .noAnswer(reason: "the host has no address") }
        // Every address is checked, and the connection goes to one of exactly these.
        guard !addresses.contains(where: LinkLocal.contains) else {
            return .noAnswer(reason: "refused: the host resolves to a link-local address")
        }
        let secure = target.scheme == "https"
        let serverName = Self.isAddressLiteral(target.host) ? nil : target.host
        for bytes in addresses {
            let remaining = deadline - NIODeadline.now()
            guard remaining > .zero else { return .noAnswer(reason: "timeout") }
            let channel: NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>
            do {
                let address = try SocketAddress(packedIPAddress: ByteBuffer(bytes: bytes), port: target.port)
                channel = try await connect(to: address, secure: secure, serverName: serverName, within: remaining)
            } catch {
                continue
            }
            var head = HTTPRequestHead(version: .http1_1, method: .POST, uri: target.path)
            head.headers.add(name: "host", value: Self.authority(of: target))
            head.headers.add(contentsOf: headers)
            head.headers.add(name: "content-length", value: String(body.count))
            head.headers.add(name: "connection", value: "close")
            return await exchange(on: channel, head: head, body: body, deadline: deadline)
        }
        return .noAnswer(reason: "no connection")
    }

    /// The host's addresses, or `nil` when the lookup takes longer than `timeout`, so that a try stays within its
    /// bound (and well within its claim's lease) whatever DNS does. `getaddrinfo` cannot be cancelled: a lookup that
    /// outlasts the timeout finishes unheard on its own thread.
    private func lookUp(_ host: String, within timeout: Duration) async throws -> [[UInt8]]? {
        let first = FirstAnswer<[[UInt8]]?>()
        let resolver = resolver
        return try await withCheckedThrowingContinuation { continuation in
            first.wait(continuation)
            let timer = Task {
                try await Task.sleep(for: timeout)
                first.give(.success(nil))
            }
            Task {
                do {
                    first.give(.success(try await resolver.addresses(of: host)))
                } catch {
                    first.give(.failure(error))
                }
                timer.cancel()
            }
        }
    }

    /// A connection to `address`, with TLS (`serverName` as SNI and the name its certificate must hold, or the
    /// address when it is `nil`) when `secure`, and HTTP/1.1's codec.
    private func connect(to address: SocketAddress, secure: Bool, serverName: String?, within timeout: TimeAmount)
        async throws -> NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>
    {
        let tls = secure ? self.tls : nil
        return try await ClientBootstrap(group: group).connectTimeout(timeout).connect(to: address) { channel in
            channel.eventLoop.makeCompletedFuture {
                if let tls {
                    try channel.pipeline.syncOperations.addHandler(
                        NIOSSLClientHandler(context: tls, serverHostname: serverName))
                }
                try channel.pipeline.syncOperations.addHTTPClientHandlers()
                return try NIOAsyncChannel(wrappingChannelSynchronously: channel)
            }
        }
    }

    /// Sends the request and reads up to the answer's head, closing the connection after it or at `deadline`.
    private func exchange(
        on channel: NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>, head: HTTPRequestHead,
        body: [UInt8], deadline: NIODeadline
    ) async -> PostExchange {
        let raw = channel.channel
        let timer = raw.eventLoop.scheduleTask(deadline: deadline) { raw.close(promise: nil) }
        defer { timer.cancel() }
        do {
            let answer: PostExchange? = try await channel.executeThenClose { inbound, outbound in
                // One write: a receiver may answer and close as soon as it has the body.
                try await outbound.write(contentsOf: [.head(head), .body(.byteBuffer(ByteBuffer(bytes: body))), .end(nil)])
                for try await part in inbound {
                    if case .head(let response) = part {
                        let retryAfter = response.headers.first(name: "retry-after")
                            .flatMap(PushServiceAnswer.retryAfterSeconds).map { Duration.seconds($0) }
                        return .answered(status: Int(response.status.code), retryAfter: retryAfter, body: [])
                    }
                }
                return nil
            }
            if let answer { return answer }
        } catch {
            // Closed at the deadline, the try timed out; before it, the connection failed.
            if NIODeadline.now() < deadline { return .noAnswer(reason: "no answer (\(type(of: error)))") }
        }
        return .noAnswer(reason: NIODeadline.now() < deadline ? "the connection closed without an answer" : "timeout")
    }

    /// Whether `host` is an IPv4 or IPv6 address rather than a name (TLS sends no server name for it).
    private static func isAddressLiteral(_ host: String) -> Bool {
        (try? SocketAddress(ipAddress: host, port: 0)) != nil
    }

    /// The `host` header: the host (an IPv6 address in brackets), with the port unless it is the scheme's.
    private static func authority(of target: WebhookTarget) -> String {
        let name = target.host.contains(":") ? "[\(target.host)]" : target.host
        return target.port == (target.scheme == "https" ? 443 : 80) ? name : "\(name):\(target.port)"
    }
}

/// Resumes a continuation with whichever answer comes first; later ones are dropped.
private final class FirstAnswer<Value: Sendable>: Sendable {
    private let waiting = Mutex<CheckedContinuation<Value, any Error>?>(nil)

    func wait(_ continuation: CheckedContinuation<Value, any Error>) {
        waiting.withLock { $0 = continuation }
    }

    func give(_ answer: Result<Value, any Error>) {
        waiting.withLock { $0.take() }?.resume(with: answer)
    }
}
