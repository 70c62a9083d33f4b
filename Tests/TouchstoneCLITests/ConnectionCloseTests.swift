import Foundation
import Testing
import TouchstoneTestSupport

/// `Connection: close` (PROTOCOL.md "Operations", RFC 9112 §9.6), byte by byte over a socket to `touchstone serve`.
@Suite struct ConnectionCloseTests {
    /// `GET /healthz` with one `Connection` field per value.
    static func request(connection: [String]) -> String {
        "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n" + connection.map { "Connection: \($0)\r\n" }.joined() + "\r\n"
    }

    /// Regression: the answer to `Connection: close` lacked `Connection: close`, and after `keep-alive, Close` the
    /// server kept the connection open; under load a keep-alive client reused a connection the server was closing
    /// (`RemoteDisconnected`).
    @Test(arguments: [["close"], ["Close"], ["keep-alive, Close"], ["keep-alive,close"], ["keep-alive", "CLOSE"]])
    func aRequestListingCloseIsAnsweredWithConnectionCloseAndTheConnectionEnds(connection: [String]) async throws {
        try await withServer { server, _ in
            let socket = try TCPSocket.connected(to: try #require(server.baseURL.port))
            // A second request sent at once is not answered: the first one closed the connection.
            try socket.write(Self.request(connection: connection) + Self.request(connection: []))
            let answer = try socket.readResponse()
            #expect(answer.status == 200)
            #expect(answer.fields["connection"] == "close", "\(answer.fields)")
            let rest = try socket.readToEnd()
            #expect(rest.isEmpty, "the server closed the connection after the answer: \(String(decoding: rest, as: UTF8.self))")
        }
    }

    @Test(arguments: [[], ["keep-alive"], ["x-close, keep-alive"], ["closed"]])
    func otherRequestsKeepTheConnectionWithoutConnectionClose(connection: [String]) async throws {
        try await withServer { server, _ in
            let socket = try TCPSocket.connected(to: try #require(server.baseURL.port))
            for _ in 0..<2 {
                try socket.write(Self.request(connection: connection))
                let answer = try socket.readResponse()
                #expect(answer.status == 200)
                #expect(answer.fields["connection"] == nil, "\(answer.fields)")
            }
        }
    }
}
