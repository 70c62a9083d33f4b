import AsyncHTTPClient
import Foundation
import NIOCore
import NIOPosix

/// The load generator's HTTP client: AsyncHTTPClient on the shared event loops, with keep-alive connections
/// (one per concurrent loop), so that no request pays for a TCP handshake.
public final class BenchHTTP: Sendable {
    /// One answer: the status and the body.
    struct Answer: Sendable {
        var status: Int
        var body: ByteBuffer
    }

    let baseURL: String
    private let client: HTTPClient

    /// - Parameters:
    ///   - baseURL: where the server listens, without a trailing slash.
    ///   - connections: the most connections kept open to it.
    public init(baseURL: String, connections: Int) {
        var base = baseURL
        while base.hasSuffix("/") { base.removeLast() }
        self.baseURL = base
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(idleTimeout: .seconds(60))
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = max(1, connections)
        configuration.decompression = .disabled
        client = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration)
    }

    /// `POST path` with a JSON body.
    func post(_ path: String, json body: String, timeout: TimeAmount = .seconds(30)) async throws -> Answer {
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(string: body))
        let response = try await client.execute(request, timeout: timeout)
        let bytes = try await response.body.collect(upTo: 1 << 20)
        return Answer(status: Int(response.status.code), body: bytes)
    }

    /// `POST path` with a body encoded by `JSONEncoder` (enrolment; not on the timed path).
    func post<Body: Encodable>(_ path: String, _ body: Body) async throws -> Answer {
        try await post(path, json: String(decoding: try JSONEncoder().encode(body), as: UTF8.self))
    }

    public func shutdown() async throws {
        try await client.shutdown()
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
