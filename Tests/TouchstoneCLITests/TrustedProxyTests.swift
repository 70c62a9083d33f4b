import Foundation
import Testing
import TouchstoneProtocol
import TouchstoneTestSupport

/// `serve --trusted-proxy CIDR`: only a trusted proxy's last `X-Forwarded-For` hop is the client's address.
@Suite struct TrustedProxyTests {
    private struct AuditEntry: Decodable {
        var event: String
        var outcome: String
        var ip: String?
    }

    @Test(arguments: [
        (["--trusted-proxy", "127.0.0.1/32"], "203.0.113.7"),
        ([], "127.0.0.1"),
        (["--trusted-proxy", "10.0.0.0/8"], "127.0.0.1"),
    ])
    func failedPasswordLoginIsAuditedWithTheClientAddress(arguments: [String], expectedIP: String) async throws {
        try await withServer(arguments) { server, client in
            let created = try await client.post(
                "/v1/accounts", CreateAccountRequest(username: "ana", password: EnrolledDevice.password),
                headers: ["X-Forwarded-For": "198.51.100.9"])
            try #require(created.status == 201, "\(created)")
            let refused = try await client.post(
                "/v1/sessions/password",
                PasswordLoginRequest(clientId: "com.example.demo", username: "ana", password: "not-the-password"),
                headers: ["X-Forwarded-For": "198.51.100.1, 203.0.113.7"])
            expectProblem(refused, status: 401, code: "invalid_credentials")

            let audit = try await server.admin(["audit", "--user", "ana", "--json"])
            #expect(audit.status == 0, "\(audit)")
            let events = try #require(try audit.json([String: [AuditEntry]].self)["events"])
            let failure = try #require(
                events.first { $0.event == "login.password" && $0.outcome == "invalid_credentials" }, "\(audit)")
            #expect(failure.ip == expectedIP)
            let signup = try #require(events.first { $0.event == "account.create" }, "\(audit)")
            let signupIP = arguments.contains("127.0.0.1/32") ? "198.51.100.9" : "127.0.0.1"
            #expect(signup.ip == signupIP)
        }
    }
}
