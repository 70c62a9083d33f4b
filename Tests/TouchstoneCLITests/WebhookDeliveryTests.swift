import Foundation
import Testing
import TouchstoneProtocol
import TouchstoneTestSupport

/// Webhooks leave `touchstone serve` for a receiver that verifies each with the `standardwebhooks` package from PyPI
/// (``WebhookReceiver``): a webhook made through the admin API gets its test event; an event whose first try failed,
/// and one queued by the CLI while no server runs, are delivered by a server started again on the same database, the
/// retry with the same `webhook-id`; two instances on one PostgreSQL database deliver each event once.
@Suite struct WebhookDeliveryTests {
    /// A webhook as the admin API made it.
    struct Hook {
        let id: String
        let secret: String
    }

    /// The admin API of a server started with `--admin-port`, with a write token made by `admin token create`.
    struct AdminAPI {
        let client: WireClient
        let bearer: [String: String]

        init(port: Int, database: String, in directory: ScratchDirectory) async throws {
            let created = try await TouchstoneExecutable.run(
                ["admin", "token", "create", "hooks-\(port)", "--scope", "write", "--database", database], in: directory)
            try #require(created.status == 0, "\(created)")
            client = WireClient(baseURL: try #require(URL(string: "http://127.0.0.1:\(port)")))
            bearer = ["Authorization": "Bearer \(try #require(created.stdoutLines.last))"]
        }

        struct NewWebhook: Encodable {
            let url: String
            let events: [String]
        }

        /// `POST /admin/v1/webhooks`, sent again while the admin listener is not up yet.
        func createWebhook(url: String, events: [String]) async throws -> Hook {
            let deadline = ContinuousClock.now + .seconds(20)
            var answer: WireResponse?
            while answer == nil {
                do {
                    answer = try await client.post("/admin/v1/webhooks", NewWebhook(url: url, events: events), headers: bearer)
                } catch where ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(50))
                }
            }
            let created = try #require(answer)
            try #require(created.status == 201, "\(created)")
            let object = try created.object()
            return Hook(id: try #require(object["webhookId"] as? String), secret: try #require(object["secret"] as? String))
        }

        /// `POST /admin/v1/webhooks/{id}/test`: 202.
        func test(_ hook: Hook) async throws {
            let queued = try await client.send("POST", "/admin/v1/webhooks/\(hook.id)/test", headers: bearer)
            try #require(queued.status == 202, "\(queued)")
        }
    }

    @Test func aDeliveryThatFailedAndOneQueuedWhileNoServerRunsAreDeliveredAfterARestart() async throws {
        try await withWebhookReceiver { receiver in
            let path = "/hooks/restart"
            // The test event's first try fails; every later one is taken.
            try receiver.setAnswers(["503", "200"], for: path)
            let adminPort = try FreePort.claim()
            let first = try await ServerProcess.start(["--admin-port", "\(adminPort)"])
            let hook: Hook
            do {
                try await DeviceCLI.createAccount("ana", on: WireClient(baseURL: first.baseURL))
                let api = try await AdminAPI(port: adminPort, database: first.database, in: first.directory)
                hook = try await api.createWebhook(url: receiver.url + path, events: ["user.reset"])
                try receiver.setSecret(hook.secret, for: path)
                try await api.test(hook)
                _ = try await receiver.requests(atLeast: 1, path: path)
                #expect(await first.stop() == 0)
            } catch {
                await first.stop()
                throw error
            }

            // No server runs: the CLI's reset queues its event in its own transaction.
            let reset = try await TouchstoneExecutable.run(
                ["admin", "user", "reset", "ana", "--database", first.database], in: first.directory)
            try #require(reset.status == 0, "\(reset)")
            try await Task.sleep(for: .seconds(1))
            #expect(try receiver.recorded().count == 1)

            let second = try await ServerProcess.start(["--database", first.database])
            do {
                let requests = try await receiver.requests(atLeast: 3, path: path)
                #expect(requests.count == 3)
                #expect(requests.allSatisfy { $0.verification == .verified }, "\(requests)")
                let types = try requests.map { try $0.json()["type"] as? String }
                #expect(types.sorted { ($0 ?? "") < ($1 ?? "") } == ["user.reset", "webhook.test", "webhook.test"])
                let tests = requests.filter { $0.body.contains("\"webhook.test\"") }
                #expect(tests.map(\.answered) == ["503", "200"])
                #expect(tests.count == 2 && tests[0].headers["webhook-id"] == tests[1].headers["webhook-id"])
                #expect(tests.count == 2 && tests[0].headers["webhook-timestamp"] != tests[1].headers["webhook-timestamp"])
                let reset = try #require(requests.first { $0.body.contains("\"user.reset\"") }).json()
                let data = try #require(reset["data"] as? [String: Any])
                #expect(data["userId"] is String)
                #expect(await second.stop() == 0)
            } catch {
                await second.stop()
                throw error
            }
        }
    }

    @Test(.enabled(if: TestDatabase.postgresServer != nil, "needs TOUCHSTONE_TEST_POSTGRES (scripts/test sets it)"))
    func twoInstancesOnOnePostgreSQLDatabaseDeliverEachEventOnce() async throws {
        try await withWebhookReceiver { receiver in
            try await TestDatabase.with(.postgres) { database in
                let scratch = try ScratchDirectory()
                let ports = [try FreePort.claim(), try FreePort.claim()]
                try await withServers(
                    ["--database", database, "--admin-port", "\(ports[0])"],
                    ["--database", database, "--admin-port", "\(ports[1])"]
                ) { a, b in
                    let path = "/hooks/twice"
                    let apis = [
                        try await AdminAPI(port: ports[0], database: database, in: scratch),
                        try await AdminAPI(port: ports[1], database: database, in: scratch),
                    ]
                    let hook = try await apis[0].createWebhook(url: receiver.url + path, events: ["pin.locked"])
                    try receiver.setSecret(hook.secret, for: path)
                    // Twelve events, queued at either instance; both senders claim from the one outbox.
                    for index in 0..<12 {
                        try await apis[index % 2].test(hook)
                    }
                    _ = try await receiver.requests(atLeast: 12, path: path)
                    // A second delivery of any would come within the senders' next turns.
                    try await Task.sleep(for: .seconds(2))
                    let requests = try receiver.recorded()
                    #expect(requests.count == 12)
                    #expect(Set(requests.compactMap { $0.headers["webhook-id"] }).count == 12)
                    #expect(requests.allSatisfy { $0.verification == .verified }, "\(requests)")
                    #expect(await a.stop() == 0)
                    #expect(await b.stop() == 0)
                }
            }
        }
    }
}
