import Foundation
import Testing
import TouchstoneProtocol
import TouchstoneTestSupport

/// `touchstone serve` options, and configuration that must fail at start-up with a one-line reason.
@Suite struct ServeConfigurationTests {
    @Test func noSelfSignupRefusesAccounts() async throws {
        try await withServer(["--no-self-signup"]) { server, client in
            let refused = try await client.post(
                "/v1/accounts", CreateAccountRequest(username: "ana", password: EnrolledDevice.password))
            expectProblem(refused, status: 403, code: "signup_disabled")
            let users = try await server.admin(["users", "--json"])
            #expect(users.status == 0, "\(users)")
            #expect(try users.json([String: [String]].self)["users"] == [], "nothing was stored: \(users)")
        }
    }

    @Test func rateLimitSetsTheRequestsPerAddressAndMinute() async throws {
        try await withServer(["--rate-limit", "2"]) { _, client in
            for _ in 0..<2 {
                #expect(try await client.post("/v1/webauthn/authentication/options", [String: String]()).status == 200)
            }
            let refused = try await client.post("/v1/webauthn/authentication/options", [String: String]())
            expectProblem(refused, status: 429, code: "too_many_attempts")
            #expect(refused.headers["retry-after"].flatMap { Int($0) } != nil, "\(refused)")
        }
        let directory = try ScratchDirectory()
        let negative = try await TouchstoneExecutable.run(["serve", "--port", "0", "--rate-limit", "-1"], in: directory)
        #expect(negative.status != 0 && negative.stderr.contains("--rate-limit"), "\(negative)")
    }

    @Test func servesOnAFreePortWithSelfSignupOpen() async throws {
        try await withServer { server, client in
            #expect(server.baseURL.host == "127.0.0.1" && server.baseURL.port != 0, "\(server.baseURL)")
            #expect(server.issuer == "http://localhost:\(server.baseURL.port ?? -1)", "the issuer names the port bound")
            #expect(try server.stdoutText().split(separator: "\n").count == 1, "one line when ready")
            let health = try await client.get("/healthz")
            #expect(health.status == 200, "\(health)")
            let created = try await client.post(
                "/v1/accounts", CreateAccountRequest(username: "ana", password: EnrolledDevice.password))
            #expect(created.status == 201, "\(created)")
            #expect(try !created.decode(CreateAccountResponse.self).userId.isEmpty)
            #expect(await server.stop() == 0, "SIGTERM shuts the server down gracefully")
        }
    }

    /// Regression: `serve` exited 0 when a listener could not bind ("Address already in use"), as if it had been asked to
    /// stop; scripts took it for a clean run.
    @Test(arguments: ["--port", "--metrics-port"])
    func aPortThatCannotBeBoundFailsTheServerWithAReason(option: String) async throws {
        let holder = try TCPSocket.listening()
        let taken = try holder.port
        let directory = try ScratchDirectory()
        let result = try await TouchstoneExecutable.run(
            ["serve", "--port", "0", "--database", directory.path("touchstone.sqlite"), option, "\(taken)"], in: directory,
            timeout: 60)
        #expect(!result.timedOut, "the server kept running without its listener: \(result)")
        #expect(result.status != 0, "\(result)")
        let reason = try #require(result.stderrLines.last, "\(result)")
        #expect(reason.contains("127.0.0.1:\(taken) (\(option))") && reason.contains("Address already in use"), "\(result)")
    }

    /// Regression: `serve --port 0` without `--issuer` named `http://localhost:8080` as its issuer, a port it did not
    /// serve on, so device tokens for the URL it printed were refused and its web page's origin was not its own.
    @Test func aFreePortIsTheDefaultIssuersPort() async throws {
        try await withServer { server, client in
            let port = try #require(server.baseURL.port)
            #expect(server.issuer == "http://localhost:\(port)", "the ready line names the port bound")
            let discovery = try await client.get("/.well-known/openid-configuration")
            #expect(discovery.status == 200, "\(discovery)")
            #expect(try discovery.object()["issuer"] as? String == "http://localhost:\(port)", "\(discovery)")
            // The default web origin follows the issuer (CORS answers it, and only it).
            let own = try await client.get("/healthz", headers: ["Origin": "http://localhost:\(port)"])
            #expect(own.header("Access-Control-Allow-Origin") == "http://localhost:\(port)", "\(own)")
            let other = try await client.get("/healthz", headers: ["Origin": "http://localhost:8080"])
            #expect(other.header("Access-Control-Allow-Origin") == nil, "\(other)")
            // Device tokens are for that issuer.
            let ana = try await EnrolledDevice.enrol(issuer: server.issuer, client: client)
            #expect(try AccessToken(ana.firstSession.accessToken).claims.iss == "http://localhost:\(port)")
        }
    }

    @Test func aBcryptCostBelowTwelveIsAnnouncedAtStart() async throws {
        // The test servers hash at cost 4 (ServerProcess); the server says so in its log, every time it starts.
        try await withServer(["--insecure-bcrypt-cost", "5"]) { server, client in
            let created = try await client.post(
                "/v1/accounts", CreateAccountRequest(username: "ana", password: EnrolledDevice.password))
            #expect(created.status == 201, "\(created)")
            let log = try server.stderrLog()
            #expect(log.contains("bcrypt cost 5, below 12: for tests only"), "\(log)")
        }
    }

    @Test func explicitIssuerIsTheAudienceOfDeviceTokens() async throws {
        try await withServer(["--issuer", "https://login.example.com/"]) { server, client in
            #expect(server.issuer == "https://login.example.com", "the trailing slash is dropped")
            let ana = try await EnrolledDevice.enrol(on: server, client: client)
            let token = try AccessToken(ana.firstSession.accessToken)
            #expect(token.claims.iss == "https://login.example.com")
            let session = try await ana.session()
            #expect(session.amr == ["bio"])
        }
    }

    @Test(arguments: [
        (["--issuer", "http://example.com"], ["https"]),
        (["--issuer", "ftp://localhost"], ["https"]),
        (["--database", "postgres://x"], ["--database"]),
        (["--trusted-proxy", "not-a-range"], ["--trusted-proxy", "not-a-range"]),
        (["--rp-id", "example.org"], ["--rp-id", "example.org", "localhost"]),
        (["--issuer", "https://login.example.com", "--origin", "https://example.net"], ["example.net", "login.example.com"]),
        (["--rp-id", "example.com", "--origin", "http://example.com"], ["http://example.com"]),
        (["--issuer", "https://10.1.2.3"], ["--rp-id"]),
        (["--insecure-attestation-root", "/nonexistent/root.pem"], ["/nonexistent/root.pem"]),
        (["--insecure-attestation-root", "/etc/hostname"], ["--insecure-attestation-root", "not", "/etc/hostname"]),
        (["--android-attestation-status", "/nonexistent/status.json"], ["/nonexistent/status.json"]),
        (["--android-attestation-status", "/etc/hostname"], ["--android-attestation-status", "status list"]),
        (["--insecure-bcrypt-cost", "3"], ["--insecure-bcrypt-cost", "4 to 11"]),
        (["--insecure-bcrypt-cost", "12"], ["--insecure-bcrypt-cost", "4 to 11"]),
    ])
    func badConfigurationFailsAtStartUp(arguments: [String], mentions: [String]) async throws {
        let directory = try ScratchDirectory()
        let result = try await TouchstoneExecutable.run(
            ["serve", "--port", "0", "--database", directory.path("touchstone.sqlite")] + arguments, in: directory,
            timeout: 30)
        #expect(!result.timedOut, "the server started instead of refusing: \(result)")
        #expect(result.status != 0, "\(result)")
        #expect(result.stdout.isEmpty, "nothing is served: \(result)")
        #expect(result.stderrLines.count == 1, "one line: \(result)")
        for word in mentions {
            #expect(result.stderr.contains(word), "the reason mentions \(word): \(result)")
        }
        let files = try directory.fileNames().filter { !$0.hasPrefix("run-") }
        #expect(files.isEmpty, "no database is created: \(files)")
    }
}
