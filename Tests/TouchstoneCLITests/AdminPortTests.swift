import Foundation
import Testing
import TouchstoneProtocol
import TouchstoneTestSupport

/// `serve --admin-port` (PROTOCOL "Administration API"): the admin API on a listener of its own at `--host`, never on
/// the public port, and a port shared with the public or the metrics listener refused at start.
@Suite struct AdminPortTests {
    @Test func theAdminAPIIsServedOnItsOwnPortAndNeverOnThePublicOne() async throws {
        let adminPort = try FreePort.claim()
        try await withServer(["--admin-port", "\(adminPort)"]) { server, client in
            let created = try await server.admin(["token", "create", "ops", "--scope", "read"])
            #expect(created.status == 0, "\(created)")
            let token = try #require(created.stdoutLines.last)
            #expect(token.hasPrefix("tsa_"), "\(created)")
            let bearer = ["Authorization": "Bearer \(token)"]

            let admin = WireClient(baseURL: try #require(URL(string: "http://127.0.0.1:\(adminPort)")))
            let apps = try await Self.firstAnswer { try await admin.get("/admin/v1/apps", headers: bearer) }
            #expect(apps.status == 200, "\(apps)")
            #expect(try apps.object()["apps"] is [Any], "\(apps)")
            let anonymous = try await admin.get("/admin/v1/apps")
            #expect(anonymous.status == 401, "\(anonymous)")
            #expect(anonymous.header("WWW-Authenticate") == "Bearer", "\(anonymous)")
            let document = try await admin.get("/admin/v1/openapi.yaml")
            #expect(document.status == 200, "\(document)")
            #expect(document.text.hasPrefix("openapi: 3.1"), "\(document)")

            // The public port knows none of it, with a token or without.
            for path in ["/admin/v1/apps", "/admin/v1/openapi.yaml", "/admin/v1/users"] {
                let refused = try await client.get(path, headers: bearer)
                #expect(refused.status == 404, "\(path): \(refused)")
                #expect(try refused.decode(Problem.self).code == .notFound, "\(path): \(refused)")
            }
            // And the admin port serves no public route.
            #expect(try await admin.get("/healthz").status == 404)

            // A change through the API is audited as the token that made it, and `admin audit --json` names it.
            let writer = try #require(
                try await server.admin(["token", "create", "ops-writer", "--scope", "write"]).stdoutLines.last)
            let key = try await admin.post(
                "/admin/v1/apps/com.example.demo/api-keys", [String: String](), headers: ["Authorization": "Bearer \(writer)"])
            #expect(key.status == 201, "\(key)")
            let audit = try await server.admin(["audit", "--json"])
            let listed = try JSONSerialization.jsonObject(with: Data(audit.stdout.utf8)) as? [String: Any]
            let events = try #require(listed?["events"] as? [[String: Any]], "\(audit)")
            let keyEvent = try #require(events.first { $0["event"] as? String == "admin.api_key.create" }, "\(audit)")
            #expect(keyEvent["actor"] as? String == "admin_token" && keyEvent["actorName"] as? String == "ops-writer")
        }
    }

    /// Admin requests are traced as public ones are (PROTOCOL "Traces"): a server span named after the route's pattern,
    /// never the token or the query.
    @Test func anAdminRequestIsAServerSpanNamedAfterItsRoute() async throws {
        let adminPort = try FreePort.claim()
        try await withOTLPReceiver { receiver in
            try await withServer(
                ["--admin-port", "\(adminPort)", "--otel-endpoint", receiver.url], environment: TraceExportTests.quickExport
            ) { server, _ in
                let token = try #require(try await server.admin(["token", "create", "ops", "--scope", "read"]).stdoutLines.last)
                let admin = WireClient(baseURL: try #require(URL(string: "http://127.0.0.1:\(adminPort)")))
                let app = try await Self.firstAnswer {
                    try await admin.get(
                        "/admin/v1/apps/com.example.demo?secret=\(TraceExportTests.querySecret)",
                        headers: ["Authorization": "Bearer \(token)"])
                }
                #expect(app.status == 200, "\(app)")

                let spans = try await receiver.spans(until: { $0.name == "GET /admin/v1/apps/{clientId}" })
                let span = try #require(spans.first { $0.name == "GET /admin/v1/apps/{clientId}" })
                #expect(span.kind == "SERVER" && Set(span.attributes.keys) == TraceExportTests.serverSpanAttributes, "\(span)")
                #expect(span.attributes["url.path"] == .string("/admin/v1/apps/com.example.demo"))
                #expect(span.attributes["http.response.status_code"] == .int(200))
                TraceExportTests.expectNothingSecret(in: spans)
                #expect(!spans.contains { $0.texts.contains { $0.contains(token) } }, "the admin token in \(spans)")
            }
        }
    }

    @Test(arguments: ["--port", "--metrics-port"])
    func theAdminPortCannotBeThePublicOrTheMetricsOne(option: String) async throws {
        let directory = try ScratchDirectory()
        let port = try FreePort.claim()
        var arguments = ["serve", "--port", "\(port)", "--database", directory.path("t.sqlite"), "--admin-port", "\(port)"]
        if option == "--metrics-port" {
            let other = try FreePort.claim()
            arguments = ["serve", "--port", "\(other)", "--metrics-port", "\(port)", "--admin-port", "\(port)"]
                + ["--database", directory.path("t.sqlite")]
        }
        let result = try await TouchstoneExecutable.run(arguments, in: directory, timeout: 30)
        #expect(!result.timedOut, "the server started: \(result)")
        #expect(result.status != 0, "\(result)")
        #expect(result.stderrLines.count == 1, "one line: \(result)")
        #expect(result.stderr.contains("--admin-port") && result.stderr.contains(option), "\(result)")
        #expect(result.stdout.isEmpty, "nothing is served: \(result)")
    }

    @Test func anAdminPortThatCannotBeBoundFailsTheServerWithAReason() async throws {
        let holder = try TCPSocket.listening()
        let taken = try holder.port
        let directory = try ScratchDirectory()
        let result = try await TouchstoneExecutable.run(
            ["serve", "--port", "0", "--database", directory.path("touchstone.sqlite"), "--admin-port", "\(taken)"],
            in: directory, timeout: 60)
        #expect(!result.timedOut, "the server kept running without its admin listener: \(result)")
        #expect(result.status != 0, "\(result)")
        let reason = try #require(result.stderrLines.last, "\(result)")
        #expect(reason.contains("127.0.0.1:\(taken) (--admin-port)") && reason.contains("Address already in use"), "\(result)")
    }

    /// The first answer of the admin listener, which binds once the database is ready (just after the public one).
    private static func firstAnswer(_ request: () async throws -> WireResponse) async throws -> WireResponse {
        let deadline = ContinuousClock.now + .seconds(20)
        while true {
            do {
                return try await request()
            } catch where ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(50))
            }
        }
    }
}
