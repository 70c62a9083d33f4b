import Foundation

/// Sends protocol requests to the server.
public protocol Transport: Sendable {
    /// - Throws: ``TouchstoneError`` `transport` when the server cannot be reached.
    func send(_ request: TransportRequest) async throws -> TransportResponse
}

/// One HTTP request, relative to the server's base URL.
public struct TransportRequest: Sendable {
    public var method: String
    public var path: String
    public var headers: [String: String]
    public var body: Data?

    public init(method: String, path: String, headers: [String: String] = [:], body: Data? = nil) {
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
    }
}

/// One HTTP answer.
public struct TransportResponse: Sendable {
    public var status: Int
    public var body: Data

    public init(status: Int, body: Data) {
        self.status = status
        self.body = body
    }
}
