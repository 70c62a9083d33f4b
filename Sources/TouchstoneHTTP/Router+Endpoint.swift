import HTTPTypes
import Hummingbird
import TouchstoneProtocol

extension RouterMethods {
    /// Routes `endpoint` (its method and path, as the protocol's table writes them) to `handler`.
    @discardableResult
    func on(
        _ endpoint: Endpoint, use handler: @Sendable @escaping (Request, Context) async throws -> some ResponseGenerator
    ) -> Self {
        on(RouterPath(endpoint.routerPattern), method: HTTPRequest.Method(endpoint.method) ?? .get, use: handler)
    }
}
