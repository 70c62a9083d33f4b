import Foundation
import Testing
import TouchstoneProtocol
import TouchstoneTestSupport

/// `serve --otel-endpoint` (PROTOCOL "Traces"): the spans reach an OTLP/HTTP receiver that decodes them with
/// opentelemetry-proto (``OTLPReceiver``). A server span per request named after its route's pattern with exactly the
/// five attributes and never the query, a bare `METHOD` for a request no route matched, an incoming `traceparent`
/// continued, a child span per database transaction on both stores, a client span per push and per webhook; and
/// nothing sent without the flag.
@Suite struct TraceExportTests {
    /// Batches every 100 ms (OpenTelemetry's `OTEL_BSP_SCHEDULE_DELAY`, in milliseconds) instead of every 5 s.
    static let quickExport = ["OTEL_BSP_SCHEDULE_DELAY": "100"]
    /// What no span may hold: a query's name and value, a username, a password.
    static let username = "tracy-5qz"
    static let querySecret = "hunter2-query-value"
    static let serverSpanAttributes: Set<String> = [
        "http.request.method", "http.route", "http.response.status_code", "url.scheme", "url.path",
    ]

    @Test(arguments: TestDatabase.kinds)
    func eachRequestIsAServerSpanNamedAfterItsRouteWithItsTransactionsAsChildren(_ kind: TestDatabase.Kind) async throws {
        try await withOTLPReceiver { receiver in
            try await TestDatabase.withMigrated(kind) { database in
                try await withServer(
                    ["--database", database, "--otel-endpoint", receiver.url], environment: Self.quickExport
                ) { _, client in
                    let policy = try await client.get("/v1/apps/com.example.demo/policy?secret=\(Self.querySecret)")
                    #expect(policy.status == 200, "\(policy)")
                    let unmatched = try await client.get("/no/such/route?secret=\(Self.querySecret)")
                    #expect(unmatched.status == 404, "\(unmatched)")
                    let created = try await client.post(
                        "/v1/accounts", CreateAccountRequest(username: Self.username, password: DeviceCLI.password))
                    #expect(created.status == 201, "\(created)")

                    let spans = try await receiver.spans(until: { $0.name == "POST /v1/accounts" })
                    let route = try #require(spans.first { $0.name == "GET /v1/apps/{clientId}/policy" }, "\(spans)")
                    #expect(route.kind == "SERVER")
                    #expect(Set(route.attributes.keys) == Self.serverSpanAttributes, "\(route)")
                    #expect(route.attributes["http.request.method"] == .string("GET"))
                    #expect(route.attributes["http.route"] == .string("/v1/apps/{clientId}/policy"))
                    #expect(route.attributes["http.response.status_code"] == .int(200))
                    #expect(route.attributes["url.scheme"] == .string("http"))
                    #expect(route.attributes["url.path"] == .string("/v1/apps/com.example.demo/policy"))
                    #expect(route.resource["service.name"] == .string("touchstone"))

                    // A request no route matched: the method alone, and no route.
                    let none = try #require(spans.first { $0.attributes["url.path"] == .string("/no/such/route") })
                    #expect(none.name == "GET" && none.kind == "SERVER", "\(none)")
                    #expect(Set(none.attributes.keys) == Self.serverSpanAttributes.subtracting(["http.route"]), "\(none)")
                    #expect(none.attributes["http.response.status_code"] == .int(404))

                    // Each of the sign-up's transactions is a child of its request's span, with the database's name only.
                    let signUp = try #require(spans.first { $0.name == "POST /v1/accounts" })
                    #expect(signUp.attributes["http.response.status_code"] == .int(201))
                    let transactions = spans.filter { $0.parentSpanId == signUp.spanId }
                    #expect(!transactions.isEmpty, "no child of \(signUp) in \(spans)")
                    for transaction in transactions {
                        #expect(transaction.name == "db.transaction" && transaction.kind == "CLIENT", "\(transaction)")
                        #expect(transaction.traceId == signUp.traceId)
                        #expect(
                            transaction.attributes == ["db.system.name": .string(kind == .sqlite ? "sqlite" : "postgresql")],
                            "\(transaction)")
                    }
                    Self.expectNothingSecret(in: spans)
                }
            }
        }
    }

    @Test func anIncomingTraceparentIsContinued() async throws {
        let traceId = "4bf92f3577b34da6a3ce929d0e0e4736"
        let parentId = "00f067aa0ba902b7"
        try await withOTLPReceiver { receiver in
            try await withServer(["--otel-endpoint", receiver.url], environment: Self.quickExport) { _, client in
                let answer = try await client.get("/healthz", headers: ["traceparent": "00-\(traceId)-\(parentId)-01"])
                #expect(answer.status == 200, "\(answer)")
                let spans = try await receiver.spans(until: { $0.name == "GET /healthz" })
                let health = try #require(spans.first { $0.name == "GET /healthz" })
                #expect(health.traceId == traceId && health.parentSpanId == parentId, "\(health)")
                #expect(health.spanId != parentId && health.spanId.count == 16)
            }
        }
    }

    @Test func aPushIsAClientSpanWithoutTheDeviceToken() async throws {
        try await withPushTestServer { apns in
            try await withOTLPReceiver { receiver in
                try await withServer(
                    PushDeliveryTests.pushOptions(apns) + ["--otel-endpoint", receiver.url], environment: Self.quickExport,
                    atLocalhost: true
                ) { server, client in
                    try await PushDeliveryTests.configureAPNs(database: server.database, in: server.directory)
                    try await DeviceCLI.createAccount("ana", on: client)
                    let phone = try DeviceCLI.Profile(server)
                    _ = try await phone.register("ana")
                    let registered = try await phone.run([
                        "push", "register", "--apns", PushDeliveryTests.token, "--topic", "com.example.demo",
                        "--environment", "development",
                    ])
                    try #require(registered.status == 0, "\(registered)")
                    let asked = try await client.post(
                        "/v1/confirmations", PushDeliveryTests.payment,
                        headers: try await PushDeliveryTests.apiKey(database: server.database, in: server.directory))
                    try #require(asked.status == 201, "\(asked)")
                    _ = try await apns.requests(atLeast: 1, pathPrefix: "/3/device/")

                    let spans = try await receiver.spans(until: { $0.name == "POST apns" })
                    let push = try #require(spans.first { $0.name == "POST apns" })
                    let apnsURL = try #require(URLComponents(string: apns.url))
                    #expect(push.kind == "CLIENT")
                    #expect(
                        push.attributes == [
                            "touchstone.outbound": .string("apns"), "http.request.method": .string("POST"),
                            "server.address": .string(try #require(apnsURL.host)),
                            "server.port": .int(try #require(apnsURL.port)), "http.response.status_code": .int(200),
                        ], "\(push)")
                    for span in spans {
                        for text in span.texts {
                            #expect(!text.contains(PushDeliveryTests.token) && !text.contains("/3/device"), "\(span)")
                        }
                    }
                    Self.expectNothingSecret(in: spans)
                }
            }
        }
    }

    @Test func aWebhookIsAClientSpanWithoutItsURLsPathQueryOrSecret() async throws {
        try await withWebhookReceiver { hooks in
            try await withOTLPReceiver { receiver in
                let adminPort = try FreePort.claim()
                try await withServer(
                    ["--admin-port", "\(adminPort)", "--otel-endpoint", receiver.url], environment: Self.quickExport
                ) { server, _ in
                    let path = "/hooks/traced?sig=\(Self.querySecret)"
                    let api = try await WebhookDeliveryTests.AdminAPI(
                        port: adminPort, database: server.database, in: server.directory)
                    let hook = try await api.createWebhook(url: hooks.url + path, events: ["user.reset"])
                    try await api.test(hook)
                    _ = try await hooks.requests(atLeast: 1, path: path)

                    let spans = try await receiver.spans(until: { $0.name == "POST webhook" })
                    let delivery = try #require(spans.first { $0.name == "POST webhook" })
                    let hooksURL = try #require(URLComponents(string: hooks.url))
                    #expect(delivery.kind == "CLIENT")
                    #expect(
                        delivery.attributes == [
                            "touchstone.outbound": .string("webhook"), "http.request.method": .string("POST"),
                            "server.address": .string(try #require(hooksURL.host)),
                            "server.port": .int(try #require(hooksURL.port)), "http.response.status_code": .int(200),
                        ], "\(delivery)")
                    for span in spans {
                        for text in span.texts {
                            #expect(!text.contains("/hooks") && !text.contains(hook.secret), "\(span)")
                        }
                    }
                    Self.expectNothingSecret(in: spans)
                }
            }
        }
    }

    @Test func withoutTheFlagNothingIsSent() async throws {
        try await withOTLPReceiver { receiver in
            // OpenTelemetry's own variables name the receiver: only the flag turns the export on.
            let environment = Self.quickExport.merging([
                "OTEL_EXPORTER_OTLP_ENDPOINT": receiver.url,
                "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": receiver.url + "/v1/traces",
            ]) { $1 }
            try await withServer(environment: environment) { server, client in
                #expect(try await client.get("/healthz").status == 200)
                let created = try await client.post(
                    "/v1/accounts", CreateAccountRequest(username: Self.username, password: DeviceCLI.password))
                #expect(created.status == 201, "\(created)")
                try await Task.sleep(for: .seconds(1))
                // Stopping flushes what an exporter would still hold.
                #expect(await server.stop() == 0)
            }
            let received = try receiver.requests()
            #expect(received.isEmpty, "\(received)")
        }
    }

    @Test func anEndpointThatIsNotAnHTTPURLIsRefusedAtStart() async throws {
        let scratch = try ScratchDirectory()
        let refused = try await TouchstoneExecutable.run(
            [
                "serve", "--port", "0", "--database", scratch.path("touchstone.sqlite"), "--otel-endpoint",
                "localhost:4318",
            ], in: scratch)
        #expect(refused.status != 0, "\(refused)")
        #expect(refused.stderr.contains("--otel-endpoint takes an http or https URL"), "\(refused)")
    }

    /// No span holds the query, the username or the password, in any text.
    static func expectNothingSecret(in spans: [OTLPReceiver.RecordedSpan]) {
        for span in spans {
            for text in span.texts {
                for secret in [querySecret, "secret=", username, DeviceCLI.password] {
                    #expect(!text.contains(secret), "\(secret) in \(span)")
                }
            }
        }
    }
}
