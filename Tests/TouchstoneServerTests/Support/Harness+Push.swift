import HTTPTypes
import HummingbirdTesting
import TouchstoneProtocol
import TouchstoneTestSupport

extension Harness {
    /// A request to one of `deviceId`'s own endpoints, signed with a fresh request token of `device` in its name.
    func deviceRequest(
        _ endpoint: Endpoint, _ more: String..., json: (any Encodable)? = nil, raw: String? = nil, by device: TestDevice,
        deviceId: String
    ) async throws -> TestResponse {
        let path = endpoint.path(values: [deviceId] + more)
        let proof = try await device.request(deviceId: deviceId, method: endpoint.method, path: path, now: now)
        return try await send(
            HTTPRequest.Method(endpoint.method) ?? .get, path, json: json, raw: raw,
            headers: [.authorization: "TouchstoneDevice \(proof)"])
    }
}
