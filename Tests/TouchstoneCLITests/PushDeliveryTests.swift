import Crypto
import Foundation
import _CryptoExtras
import Testing
import TouchstoneProtocol
import TouchstoneTestSupport

/// Pushes leave `touchstone serve` for a stand-in of APNs over HTTP/2 and TLS (``PushTestServer``, trusted through
/// `--insecure-push-ca`): the device hears of a confirmation, fetches it and approves it; a push queued when the
/// server stops is sent after it starts again; two instances on one PostgreSQL database send each push once.
@Suite struct PushDeliveryTests {
    static let token = String(repeating: "5e", count: 32)
    static let payment = ConfirmationRequest(
        username: "ana", text: "Pay ACME Ltd for invoice 42", amount: "120.00", currency: "EUR", payee: "ACME Ltd")

    /// `serve`'s options that send APNs pushes to `apns`.
    static func pushOptions(_ apns: PushTestServer) -> [String] {
        ["--insecure-apns-url", apns.url, "--insecure-push-ca", apns.caPEMPath]
    }

    /// `admin app push` for the demo app, with a new `.p8` in `directory`.
    static func configureAPNs(database: String, in directory: ScratchDirectory) async throws {
        let keyFile = directory.path("AuthKey_ABCDE12345.p8")
        try P256.Signing.PrivateKey().pemRepresentation.write(toFile: keyFile, atomically: true, encoding: .utf8)
        let configured = try await TouchstoneExecutable.run(
            [
                "admin", "app", "push", "com.example.demo", "--apns-key-file", keyFile, "--apns-key-id", "ABCDE12345",
                "--apns-team-id", "TEAM123456", "--apns-topic", "com.example.demo", "--database", database,
            ], in: directory)
        try #require(configured.status == 0, "\(configured)")
    }

    static func apiKey(database: String, in directory: ScratchDirectory) async throws -> [String: String] {
        let created = try await TouchstoneExecutable.run(
            ["admin", "api-key", "create", "com.example.demo", "--database", database], in: directory)
        try #require(created.status == 0, "\(created)")
        return ["Authorization": "ApiKey \(try #require(created.stdoutLines.last).trimmingCharacters(in: .whitespaces))"]
    }

    @Test func theDeviceHearsOfAConfirmationFetchesItAndApprovesIt() async throws {
        try await withPushTestServer { apns in
            try await DeviceCLI.withServer(Self.pushOptions(apns)) { server, client in
                try await Self.configureAPNs(database: server.database, in: server.directory)
                try await DeviceCLI.createAccount("ana", on: client)
                let phone = try DeviceCLI.Profile(server)
                let status = try await phone.register("ana")
                let registered = try await phone.run([
                    "push", "register", "--apns", Self.token, "--topic", "com.example.demo", "--environment", "development",
                ])
                try #require(registered.status == 0, "\(registered)")

                let asked = try await client.post(
                    "/v1/confirmations", Self.payment,
                    headers: try await Self.apiKey(database: server.database, in: server.directory))
                try #require(asked.status == 201, "\(asked)")
                let created = try asked.decode(ConfirmationCreated.self)

                let push = try #require(try await apns.requests(atLeast: 1, pathPrefix: "/3/device/").first)
                #expect(push.method == "POST" && push.path == "/3/device/\(Self.token)")
                #expect(push.headers["apns-topic"] == "com.example.demo")
                #expect(push.headers["apns-push-type"] == "alert" && push.headers["apns-priority"] == "10")
                #expect(push.headers["apns-collapse-id"] == created.confirmationId)
                #expect(push.headers["apns-expiration"] == String(Int(created.expiresAt.timeIntervalSince1970)))
                let body = try push.json()
                let reference = try #require(body["touchstone"] as? [String: Any])
                #expect(reference["kind"] as? String == "confirmation" && reference["id"] as? String == created.confirmationId)
                #expect(reference["deviceId"] as? String == status.deviceId && reference["v"] as? Int == 1)
                // Nothing of what is asked travels through Apple.
                for secret in ["ACME", "120", "EUR", "invoice", "ana"] {
                    #expect(!push.body.contains(secret), "\(secret) in \(push.body)")
                }

                // The app fetches what the push names, then decides on what the server says.
                let fetched = try await phone.run(["inbox", created.confirmationId, "--json"])
                #expect(fetched.status == 0, "\(fetched)")
                #expect(fetched.stdout.contains("ACME Ltd"), "\(fetched)")
                let approved = try await phone.run(["approve", created.confirmationId, "--verifier", "match"])
                #expect(approved.status == 0, "\(approved)")
                #expect(try await phone.run(["inbox", created.confirmationId]).status != 0)
                // One push for one item.
                #expect(try apns.recorded().filter { $0.path.hasPrefix("/3/device/") }.count == 1)
            }
        }
    }

    @Test func anAndroidDeviceHearsOfAWebLoginThroughFCMWithAnAccessTokenFromItsServiceAccount() async throws {
        try await withPushTestServer { fcm in
            let options = ["--insecure-fcm-url", fcm.url, "--insecure-push-ca", fcm.caPEMPath]
            try await DeviceCLI.withServer(options) { server, client in
                let account: [String: String] = [
                    "type": "service_account", "project_id": "touchstone-e2e",
                    "client_email": "push@touchstone-e2e.iam.gserviceaccount.com", "private_key_id": "k1",
                    "private_key": try _RSA.Signing.PrivateKey(keySize: .bits2048).pemRepresentation,
                    "token_uri": fcm.tokenURI(),
                ]
                let accountFile = server.directory.path("service-account.json")
                try JSONSerialization.data(withJSONObject: account).write(to: URL(fileURLWithPath: accountFile))
                let configured = try await server.admin(["app", "push", "com.example.demo", "--fcm-service-account", accountFile])
                try #require(configured.status == 0, "\(configured)")
                try await DeviceCLI.createAccount("ana", on: client)
                let phone = try DeviceCLI.Profile(server)
                let status = try await phone.register("ana")
                let registered = try await phone.run(["push", "register", "--fcm", "android:fcm-token_1"])
                try #require(registered.status == 0, "\(registered)")

                let started = try await client.post("/v1/web-logins", WebLoginRequest(username: "ana"))
                try #require(started.status == 201, "\(started)")
                let webLogin = try started.decode(WebLoginStarted.self)

                let recorded = try await fcm.requests(atLeast: 2)
                #expect(recorded.map(\.path) == ["/token", "/v1/projects/touchstone-e2e/messages:send"])
                #expect(recorded[0].form()["grant_type"] == "urn:ietf:params:oauth:grant-type:jwt-bearer")
                let send = recorded[1]
                #expect(send.headers["authorization"] == "Bearer ya29.test-1")
                let message = try #require(try send.json()["message"] as? [String: Any])
                #expect(message["token"] as? String == "android:fcm-token_1")
                #expect(message["notification"] == nil)
                #expect(
                    message["data"] as? [String: String]
                        == ["touchstone_v": "1", "kind": "web-login", "id": webLogin.webLoginId, "deviceId": try #require(status.deviceId)])
                let android = try #require(message["android"] as? [String: Any])
                #expect(android["priority"] as? String == "HIGH" && android["collapse_key"] as? String == webLogin.webLoginId)
            }
        }
    }

    @Test func aPushQueuedWhenTheServerStopsIsSentAfterItStartsAgain() async throws {
        // The first server's APNs is down (503): its try fails and waits to be made again.
        try await withPushTestServer(behaviours: [Self.token: .down]) { down in
            try await withPushTestServer { apns in
                try await Self.restart(from: down, to: apns)
            }
        }
    }

    /// Queues a push on a server whose APNs is `down`, stops it after its first try, and starts a server on the same
    /// database that sends to `apns`.
    static func restart(from down: PushTestServer, to apns: PushTestServer) async throws {
        let first = try await ServerProcess.startAtLocalhost(Self.pushOptions(down))
        let created: ConfirmationCreated
        do {
            try await Self.configureAPNs(database: first.database, in: first.directory)
            let client = WireClient(baseURL: first.baseURL)
            try await DeviceCLI.createAccount("ana", on: client)
            let phone = try DeviceCLI.Profile(first)
            try await phone.register("ana")
            let registered = try await phone.run([
                "push", "register", "--apns", Self.token, "--topic", "com.example.demo", "--environment", "production",
            ])
            try #require(registered.status == 0, "\(registered)")
            let asked = try await client.post(
                "/v1/confirmations", Self.payment,
                headers: try await Self.apiKey(database: first.database, in: first.directory))
            try #require(asked.status == 201, "\(asked)")
            created = try asked.decode(ConfirmationCreated.self)
            let deadline = Date().addingTimeInterval(30)
            while try !first.stderrLog().contains("push to be retried") {
                let log = try first.stderrLog()
                try #require(Date() < deadline, "no try within 30 s: \(log)")
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(await first.stop() == 0)
        } catch {
            await first.stop()
            throw error
        }

        let second = try await ServerProcess.start(["--database", first.database] + Self.pushOptions(apns))
        do {
            let push = try #require(try await apns.requests(atLeast: 1, pathPrefix: "/3/device/").first)
            #expect(push.headers["apns-collapse-id"] == created.confirmationId)
            #expect(try !down.recorded().filter { $0.path.hasPrefix("/3/device/") }.isEmpty)
            #expect(await second.stop() == 0)
        } catch {
            await second.stop()
            throw error
        }
    }

    @Test(.enabled(if: TestDatabase.postgresServer != nil, "needs TOUCHSTONE_TEST_POSTGRES (scripts/test sets it)"))
    func twoInstancesOnOnePostgreSQLDatabaseSendEachPushOnce() async throws {
        try await withPushTestServer { apns in
            try await TestDatabase.with(.postgres) { database in
                let scratch = try ScratchDirectory()
                // One issuer, the `aud` of the devices' tokens, as instances behind a load balancer share.
                let arguments = ["--database", database, "--issuer", "http://localhost:8080"] + Self.pushOptions(apns)
                try await withServers(arguments, arguments) { a, b in
                    try await Self.configureAPNs(database: database, in: scratch)
                    let clientA = WireClient(baseURL: a.baseURL)
                    let clientB = WireClient(baseURL: b.baseURL)
                    let key = try await Self.apiKey(database: database, in: scratch)
                    // Twelve users, each with a phone registered with APNs, each asked once at one of the instances.
                    var asked: [String] = []
                    for index in 0..<12 {
                        let client = index.isMultiple(of: 2) ? clientA : clientB
                        let username = "user\(index)"
                        let phone = try await EnrolledDevice.enrol(on: a, client: client, username: username)
                        let path = "/v1/devices/\(phone.deviceId)/push"
                        let proof = try await phone.device.request(deviceId: phone.deviceId, method: "PUT", path: path)
                        let registration = PushRegistrationRequest(
                            provider: .apns, token: String(format: "%064x", index + 1), topic: "com.example.demo",
                            environment: .production)
                        let registered = try await client.send(
                            "PUT", path, json: registration, headers: ["Authorization": "TouchstoneDevice \(proof)"])
                        try #require(registered.status == 204, "\(registered)")
                        var payment = Self.payment
                        payment.username = username
                        let created = try await client.post("/v1/confirmations", payment, headers: key)
                        try #require(created.status == 201, "\(created)")
                        asked.append(try created.decode(ConfirmationCreated.self).confirmationId)
                    }
                    _ = try await apns.requests(atLeast: asked.count, pathPrefix: "/3/device/")
                    // Both instances had time to send a second copy; neither did.
                    try await Task.sleep(for: .seconds(2))
                    let pushes = try apns.recorded().filter { $0.path.hasPrefix("/3/device/") }
                    #expect(pushes.compactMap { $0.headers["apns-collapse-id"] }.sorted() == asked.sorted())
                    #expect(await a.stop() == 0)
                    #expect(await b.stop() == 0)
                }
            }
        }
    }
}
