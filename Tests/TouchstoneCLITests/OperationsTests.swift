import Foundation
import Testing
import TouchstoneProtocol
import TouchstoneTestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What an operator runs the server with (PROTOCOL "Operations"): metrics on a listener of their own, and a graceful
/// stop on SIGTERM.
@Suite struct OperationsTests {
    @Test func metricsCountRequestsLoginsEnrolmentsAndLockoutsOnTheirOwnPort() async throws {
        let metricsPort = try FreePort.claim()
        try await withServer(["--metrics-port", "\(metricsPort)"]) { server, client in
            let ana = try await EnrolledDevice.enrol(on: server, client: client)
            _ = try await ana.session()
            // Wrong PINs until the PIN locks: each counted by its code, the last one as a lockout too.
            var codes: [ProblemCode] = []
            while codes.last != .pinLocked, codes.count < 10 {
                let refused = try await ana.login(assertion: try await ana.assertion(pin: "000000"))
                codes.append(try refused.decode(Problem.self).code)
            }
            #expect(codes == [.pinIncorrect, .pinIncorrect, .pinIncorrect, .pinIncorrect, .pinLocked])
            let inboxPath = "/v1/devices/\(ana.deviceId)/inbox"
            let inbox = try await client.get(
                inboxPath + "?waitSeconds=0",
                headers: ["Authorization": "TouchstoneDevice \(try await ana.device.request(deviceId: ana.deviceId, method: "GET", path: inboxPath))"])
            #expect(inbox.status == 200, "\(inbox)")
            let password = try await client.post(
                "/v1/sessions/password",
                PasswordLoginRequest(clientId: ana.clientId, username: ana.username, password: EnrolledDevice.password))
            #expect(password.status == 201, "\(password)")
            #expect(try await client.get("/no/such/route").status == 404)
            // A method beyond the standard ones (WebDAV's here) is counted as `other`: a client cannot add series by
            // sending methods.
            #expect(try await client.send("PROPFIND", "/no/such/route").status == 404)
            // Never on the public port.
            #expect(try await client.get("/metrics").status == 404)

            let scrape = try await WireClient(baseURL: try #require(URL(string: "http://127.0.0.1:\(metricsPort)"))).get("/metrics")
            #expect(scrape.status == 200)
            #expect(scrape.header("Content-Type")?.hasPrefix("text/plain") == true)
            let metrics = PrometheusText(String(decoding: scrape.body, as: UTF8.self))

            #expect(metrics.value("touchstone_http_requests_total", ["route": "/v1/sessions", "method": "POST", "status": "201"]) == 1)
            #expect(metrics.value("touchstone_http_requests_total", ["route": "/v1/sessions", "method": "POST", "status": "401"]) == 4)
            #expect(metrics.value("touchstone_http_requests_total", ["route": "/v1/sessions", "method": "POST", "status": "423"]) == 1)
            // The route's pattern, not the path with its id.
            #expect(metrics.value("touchstone_http_requests_total", ["route": "/v1/devices/{deviceId}/inbox", "method": "GET", "status": "200"]) == 1)
            #expect(metrics.value("touchstone_http_requests_total", ["route": "unmatched", "method": "GET", "status": "404"]) == 2)
            #expect(metrics.value("touchstone_http_requests_total", ["route": "unmatched", "method": "other", "status": "404"]) == 1)
            #expect(!metrics.text.contains(ana.deviceId) && !metrics.text.contains("PROPFIND"))
            #expect(metrics.value("touchstone_http_request_duration_seconds_count", ["route": "/v1/sessions", "method": "POST"]) == 6)
            #expect(metrics.value("touchstone_http_request_duration_seconds_bucket", ["route": "/v1/sessions", "method": "POST", "le": "+Inf"]) == 6)

            #expect(metrics.value("touchstone_logins_total", ["method": "bio", "outcome": "success"]) == 1)
            #expect(metrics.value("touchstone_logins_total", ["method": "pin", "outcome": "pin_incorrect"]) == 4)
            #expect(metrics.value("touchstone_logins_total", ["method": "pin", "outcome": "pin_locked"]) == 1)
            #expect(metrics.value("touchstone_logins_total", ["method": "password", "outcome": "success"]) == 1)
            #expect(metrics.value("touchstone_pin_lockouts_total", [:]) == 1)
            #expect(metrics.value("touchstone_enrollments_total", ["outcome": "success"]) == 1)
            #expect(metrics.value("touchstone_inbox_waiters", [:]) == 0)
            #expect((metrics.value("touchstone_db_transaction_duration_seconds_count", [:]) ?? 0) > 0)
        }
    }

    @Test func theMetricsPortCannotBeThePublicOne() async throws {
        let directory = try ScratchDirectory()
        let port = try FreePort.claim()
        let result = try await TouchstoneExecutable.run(
            ["serve", "--port", "\(port)", "--metrics-port", "\(port)", "--database", directory.path("t.sqlite")],
            in: directory)
        #expect(result.status != 0)
        #expect(result.stderr.contains("--metrics-port"), "\(result)")
    }

    /// SIGTERM: a long poll answers at once, requests in flight finish, what was acknowledged is kept, exit 0.
    @Test func sigtermAnswersLongPollsFinishesRequestsInFlightAndExitsZero() async throws {
        let metricsPort = try FreePort.claim()
        let server = try await ServerProcess.start(["--metrics-port", "\(metricsPort)"])
        let client = WireClient(baseURL: server.baseURL)
        let metrics = WireClient(baseURL: try #require(URL(string: "http://127.0.0.1:\(metricsPort)")))
        let ana = try await EnrolledDevice.enrol(on: server, client: client)
        let inboxPath = "/v1/devices/\(ana.deviceId)/inbox"
        let proof = try await ana.device.request(deviceId: ana.deviceId, method: "GET", path: inboxPath)

        let started = ContinuousClock.now
        async let longPoll = client.get(inboxPath + "?waitSeconds=30", headers: ["Authorization": "TouchstoneDevice \(proof)"])
        // Accounts created while the server stops: each is answered 201 or never reaches it.
        async let creations = withTaskGroup(of: (String, Int?).self) { group in
            for index in 0..<2 {
                group.addTask {
                    let username = "late-\(index)"
                    let answer = try? await client.post(
                        "/v1/accounts", CreateAccountRequest(username: username, password: EnrolledDevice.password))
                    return (username, answer?.status)
                }
            }
            return await group.reduce(into: [(String, Int?)]()) { $0.append($1) }
        }
        // Stops once the long poll waits in the server.
        var waiting = false
        while !waiting, ContinuousClock.now - started < .seconds(20) {
            let scrape = try await metrics.get("/metrics")
            waiting = PrometheusText(String(decoding: scrape.body, as: UTF8.self)).value("touchstone_inbox_waiters", [:]) == 1
            if !waiting { try await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(waiting)
        let signalled = ContinuousClock.now
        server.send(signal: SIGTERM)

        let answer = try await longPoll
        #expect(answer.status == 200, "\(answer)")
        #expect(try answer.decode(Inbox.self).items.isEmpty)
        // At once, not after the 30 s it asked for (nor the 10 s the server gives requests in flight).
        #expect(ContinuousClock.now - signalled < .seconds(5))
        // Within the 10 s it gives requests in flight, and some time to close on a loaded machine.
        let status = await server.exitStatus(within: 30)
        #expect(status == 0, "\((try? server.stderrLog()) ?? "")")
        await #expect(throws: (any Error).self) { try await client.get("/v1/apps/com.example.demo/policy") }

        // What was acknowledged is on disk: the same database, served again, has every account answered 201.
        let created = await creations
        let acknowledged = created.filter { $0.1 == 201 }.map(\.0)
        #expect(created.allSatisfy { $0.1 == nil || $0.1 == 201 }, "\(created)")
        try await withServer(["--database", server.database]) { _, again in
            for username in acknowledged {
                let enrolment = try await again.post(
                    "/v1/enrollments",
                    PasswordLoginRequest(clientId: "com.example.demo", username: username, password: EnrolledDevice.password))
                #expect(enrolment.status == 201, "\(username): \(enrolment)")
            }
        }
    }
}

/// Prometheus' text format, read line by line: `name{label="value",…} number`.
struct PrometheusText {
    let text: String

    init(_ text: String) {
        self.text = text
    }

    /// The sample of `name` with exactly these labels, if the text has it.
    func value(_ name: String, _ labels: [String: String]) -> Double? {
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else { continue }
            let series = line[..<space]
            let (seriesName, seriesLabels) = Self.parse(series)
            if seriesName == name, seriesLabels == labels { return value }
        }
        return nil
    }

    private static func parse(_ series: Substring) -> (String, [String: String]) {
        guard let open = series.firstIndex(of: "{"), series.last == "}" else { return (String(series), [:]) }
        var labels: [String: String] = [:]
        // Our label values hold no `",` (route patterns, methods, statuses, codes).
        for pair in series[series.index(after: open)..<series.index(before: series.endIndex)].split(separator: "\",") {
            guard let equals = pair.firstIndex(of: "=") else { continue }
            labels[String(pair[..<equals])] = String(pair[pair.index(after: equals)...].drop { $0 == "\"" }.prefix { $0 != "\"" })
        }
        return (String(series[..<open]), labels)
    }
}
