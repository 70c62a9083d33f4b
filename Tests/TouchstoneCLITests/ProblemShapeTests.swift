import Foundation
import Testing
import TouchstoneProtocol
import TouchstoneTestSupport

/// Every refusal over the wire is `application/problem+json` with `type`, `title`, `status` and `code`.
@Suite struct ProblemShapeTests {
    private struct Case: Sendable, CustomStringConvertible {
        var method: String
        var path: String
        var body: Data?
        var headers: [String: String] = [:]
        var status: Int
        var code: String

        var description: String { "\(method) \(path)" }
    }

    @Test func refusalsAreProblemDocuments() async throws {
        let tooLarge = Data(#"{"username":"ana","password":""#.utf8) + Data(repeating: UInt8(ascii: "a"), count: 70 * 1024)
            + Data(#""}"#.utf8)
        let cases: [Case] = [
            Case(method: "GET", path: "/v1/nope", status: 404, code: "not_found"),
            Case(method: "GET", path: "/nope/at/all", status: 404, code: "not_found"),
            Case(method: "POST", path: "/v1/accounts", body: tooLarge, status: 413, code: "payload_too_large"),
            Case(method: "POST", path: "/v1/accounts", body: Data(#"{"username":"#.utf8), status: 400, code: "invalid_request"),
            Case(method: "POST", path: "/v1/accounts", body: Data("not json".utf8), status: 400, code: "invalid_request"),
            Case(method: "POST", path: "/v1/accounts", body: Data(#"{"username":"ana"}"#.utf8), status: 400, code: "invalid_request"),
            Case(
                method: "POST", path: "/v1/accounts", body: Data(#"{"username":"ana","password":12345678}"#.utf8), status: 400,
                code: "invalid_request"),
            Case(method: "POST", path: "/v1/accounts", body: Data(#"{"username":"ana","password":"short"}"#.utf8), status: 400,
                code: "weak_password"),
            Case(
                method: "POST", path: "/v1/challenges", body: Data(#"{"deviceId":"x","purpose":"other"}"#.utf8), status: 400,
                code: "invalid_request"),
            Case(
                method: "POST", path: "/v1/challenges", body: Data(#"{"deviceId":"x","purpose":"login"}"#.utf8), status: 404,
                code: "device_not_found"),
            Case(method: "GET", path: "/v1/apps/com.example.nope/policy", status: 404, code: "app_not_found"),
            Case(
                method: "POST", path: "/v1/enrollments",
                body: Data(#"{"clientId":"com.example.demo","username":"nobody","password":"whatever-1234"}"#.utf8),
                status: 401, code: "invalid_credentials"),
            Case(
                method: "POST", path: "/v1/sessions",
                body: Data(#"{"clientId":"com.example.demo","assertion":"a.b.c"}"#.utf8), status: 401,
                code: "invalid_assertion"),
            Case(
                method: "POST", path: "/v1/sessions/refresh", body: Data(#"{"refreshToken":"nope"}"#.utf8), status: 401,
                code: "refresh_token_invalid"),
            Case(method: "GET", path: "/v1/devices", status: 401, code: "unauthorized"),
            Case(
                method: "GET", path: "/v1/devices", headers: ["Authorization": "Bearer not.a.token"], status: 401,
                code: "unauthorized"),
            Case(method: "DELETE", path: "/v1/sessions/current", status: 401, code: "unauthorized"),
            Case(method: "POST", path: "/v1/introspect", body: Data(#"{"token":"x"}"#.utf8), status: 401, code: "unauthorized"),
        ]
        try await withServer { server, client in
            for testCase in cases {
                let response = try await client.send(
                    testCase.method, testCase.path, body: testCase.body, headers: testCase.headers)
                expectProblem(response, status: testCase.status, code: testCase.code)
                #expect(response.header("Cache-Control") == "no-store", "\(testCase): \(response)")
                #expect(response.header("X-Content-Type-Options") == "nosniff", "\(testCase)")
            }
            let health = try await client.get("/healthz")
            #expect(health.status == 200, "the server survived every refusal: \(health)")
            let users = try await server.admin(["users", "--json"])
            #expect(try users.json([String: [String]].self)["users"] == [], "no refused request stored a user: \(users)")
        }
    }
}
