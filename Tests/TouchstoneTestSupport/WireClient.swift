import Foundation
import TouchstoneProtocol

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An outside client of the server: real HTTP on loopback, JSON in the protocol's coding.
public struct WireClient: Sendable {
    public let baseURL: URL
    private let session: URLSession

    public init(baseURL: URL) {
        self.baseURL = baseURL
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.timeoutIntervalForRequest = 60
        session = URLSession(configuration: configuration)
    }

    /// Sends a request with a raw body.
    public func send(
        _ method: String, _ path: String, body: Data? = nil, headers: [String: String] = [:]
    ) async throws -> WireResponse {
        guard let url = URL(string: path, relativeTo: baseURL) else { throw URLError(.badURL) }
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.httpBody = body
        if body != nil {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        for (name, value) in headers {
            request.setValue(value, forHTTPHeaderField: name)
        }
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String {
                fields[name.lowercased()] = value
            }
        }
        return WireResponse(status: http.statusCode, headers: fields, body: data)
    }

    /// Sends a JSON body encoded with the protocol's encoder.
    public func send<Body: Encodable>(
        _ method: String, _ path: String, json: Body, headers: [String: String] = [:]
    ) async throws -> WireResponse {
        try await send(method, path, body: try WireCoding.encoder().encode(json), headers: headers)
    }

    public func get(_ path: String, headers: [String: String] = [:]) async throws -> WireResponse {
        try await send("GET", path, headers: headers)
    }

    public func post<Body: Encodable>(_ path: String, _ json: Body, headers: [String: String] = [:]) async throws
        -> WireResponse
    {
        try await send("POST", path, json: json, headers: headers)
    }
}
