import Foundation
import Testing
import TouchstoneProtocol
import TouchstoneTestSupport

/// `touchstone admin app create|list` on the database of a running server.
@Suite struct AdminAppTests {
    @Test func appCreatedByTheAdminIsServedAtOnce() async throws {
        try await withServer { server, client in
            let demo = try await client.get("/v1/apps/com.example.demo/policy")
            try #require(demo.status == 200, "\(demo)")
            #expect(try demo.decode(AppPolicy.self) == AppPolicy(clientId: "com.example.demo", publisher: "demo"))
            #expect(
                Set(try demo.object().keys) == [
                    "clientId", "publisher", "biometricAllowed", "pinRequired", "pinLength", "maxPinAttempts",
                    "inactivityTimeoutSeconds", "sessionMaxLifetimeSeconds", "privilegedWindowSeconds",
                    "refuseCompromisedDevices", "newDeviceApproval", "attestation",
                ])

            expectProblem(try await client.get("/v1/apps/com.example.pay/policy"), status: 404, code: "app_not_found")

            let created = try await server.admin([
                "app", "create", "com.example.pay", "--publisher", "acme", "--max-pin-attempts", "3", "--no-biometrics",
            ])
            #expect(created.status == 0, "\(created)")
            #expect(created.stdout.contains("com.example.pay"), "\(created)")

            let expected = AppPolicy(
                clientId: "com.example.pay", publisher: "acme", biometricAllowed: false, maxPinAttempts: 3)
            let pay = try await client.get("/v1/apps/com.example.pay/policy")
            try #require(pay.status == 200, "\(pay)")
            #expect(try pay.decode(AppPolicy.self) == expected)

            let list = try await server.admin(["app", "list", "--json"])
            #expect(list.status == 0, "\(list)")
            #expect(list.stdoutLines.count == 1, "one JSON object: \(list)")
            let apps = try list.json([String: [AppPolicy]].self)["apps"]
            #expect(apps == [AppPolicy(clientId: "com.example.demo", publisher: "demo"), expected])

            let text = try await server.admin(["app", "list"])
            #expect(text.status == 0, "\(text)")
            #expect(text.stdoutLines.count == 2, "\(text)")
            #expect(text.stdoutLines.contains { $0.hasPrefix("com.example.pay") && $0.contains("acme") }, "\(text)")
        }
    }

    @Test func outOfRangePolicyIsRefusedWithOneLine() async throws {
        try await withServer { server, client in
            let refused = try await server.admin([
                "app", "create", "com.example.pay", "--publisher", "acme", "--max-pin-attempts", "0",
            ])
            #expect(refused.status != 0, "\(refused)")
            #expect(refused.stderrLines.count == 1, "\(refused)")
            #expect(refused.stderr.contains("--max-pin-attempts"), "\(refused)")
            expectProblem(try await client.get("/v1/apps/com.example.pay/policy"), status: 404, code: "app_not_found")
        }
    }
}
