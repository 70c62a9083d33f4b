import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// HTTP through URLSession (FoundationNetworking on Linux), so the SDK needs no other package on any platform.
public struct URLSessionTransport: Transport {
    public let baseURL: URL
    private let session: URLSession

    public init(baseURL: URL, session: URLSession = .shared) {
        self.baseURL = baseURL
        self.session = session
    }

    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        guard let url = URL(string: baseURL.absoluteString.trimmingSuffix("/") + request.path) else {
            throw TouchstoneError(.transport, "bad path \(request.path)")
        }
        var urlRequest = URLRequest(url: url, timeoutInterval: 40)
        urlRequest.httpMethod = request.method
        urlRequest.httpBody = request.body
        if request.body != nil {
            urlRequest.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        for (name, value) in request.headers {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        do {
            let (data, response) = try await session.data(for: urlRequest)
            guard let http = response as? HTTPURLResponse else {
                throw TouchstoneError(.transport, "not an HTTP answer")
            }
            return TransportResponse(status: http.statusCode, body: data)
        } catch let error as TouchstoneError {
            throw error
        } catch {
            throw TouchstoneError(.transport, "cannot reach \(baseURL.absoluteString): \(error.localizedDescription)")
        }
    }
}

extension String {
    func trimmingSuffix(_ suffix: String) -> String {
        var text = self
        while text.hasSuffix(suffix) { text.removeLast(suffix.count) }
        return text
    }
}
