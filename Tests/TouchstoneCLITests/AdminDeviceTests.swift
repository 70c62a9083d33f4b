import Foundation
import Testing
import TouchstoneProtocol
import TouchstoneTestSupport

/// `touchstone admin users|devices|revoke|audit` against a running server, and what the audit and log never hold.
@Suite struct AdminDeviceTests {
    private struct UserEntry: Decodable {
        var userId: String
        var username: String
        var createdAt: Date
    }

    private struct DeviceEntry: Decodable {
        var deviceId: String
        var username: String
        var clientId: String
        var publisher: String
        var name: String
        var model: String
        var biometric: Bool
        var pinLocked: Bool
        var createdAt: Date
        var lastUsedAt: Date?
        var revokedAt: Date?
    }

    private struct AuditEntry: Decodable {
        var at: Date
        var event: String
        var outcome: String
        var userId: String?
        var deviceId: String?
        var clientId: String?
        var ip: String?
        var detail: String?
    }

    @Test func adminRevokesADeviceAndTheAuditKeepsNoSecrets() async throws {
        try await withServer(environment: ["LOG_LEVEL": "trace"]) { server, client in
            let ana = try await EnrolledDevice.enrol(on: server, client: client)
            let wrongPassword = "wrong-Plum-7731"
            let refused = try await client.post(
                "/v1/sessions/password",
                PasswordLoginRequest(clientId: ana.clientId, username: ana.username, password: wrongPassword))
            expectProblem(refused, status: 401, code: "invalid_credentials")
            let bioAssertion = try await ana.assertion()
            let bioResponse = try await ana.login(assertion: bioAssertion)
            try #require(bioResponse.status == 201, "\(bioResponse)")
            let bio = try bioResponse.decode(Session.self)
            let pinAssertion = try await ana.assertion(pin: EnrolledDevice.pin)
            let pinResponse = try await ana.login(assertion: pinAssertion)
            try #require(pinResponse.status == 201, "\(pinResponse)")
            let pin = try pinResponse.decode(Session.self)
            let refreshedResponse = try await ana.refresh(pin.refreshToken)
            try #require(refreshedResponse.status == 200, "\(refreshedResponse)")
            let refreshed = try refreshedResponse.decode(Session.self)

            // admin users
            let users = try await server.admin(["users", "--json"])
            #expect(users.status == 0, "\(users)")
            let userList = try #require(try users.json([String: [UserEntry]].self)["users"])
            #expect(userList.map(\.username) == ["ana"])
            #expect(userList.map(\.userId) == [ana.userId])
            let usersText = try await server.admin(["users"])
            #expect(usersText.stdoutLines.count == 1 && usersText.stdout.contains("ana"), "\(usersText)")

            // admin devices --user ana
            let devices = try await server.admin(["devices", "--user", "ana", "--json"])
            #expect(devices.status == 0, "\(devices)")
            let deviceList = try #require(try devices.json([String: [DeviceEntry]].self)["devices"])
            try #require(deviceList.count == 1, "\(devices)")
            #expect(deviceList[0].deviceId == ana.deviceId)
            #expect(deviceList[0].username == "ana")
            #expect(deviceList[0].clientId == "com.example.demo")
            #expect(deviceList[0].publisher == "demo")
            #expect(deviceList[0].name == ana.device.description.name)
            #expect(deviceList[0].model == ana.device.description.model)
            #expect(deviceList[0].biometric)
            #expect(!deviceList[0].pinLocked)
            #expect(deviceList[0].revokedAt == nil)
            let unknownUser = try await server.admin(["devices", "--user", "nobody"])
            #expect(unknownUser.status != 0 && unknownUser.stderrLines.count == 1, "\(unknownUser)")

            // admin revoke
            let revoked = try await server.admin(["revoke", ana.deviceId])
            #expect(revoked.status == 0, "\(revoked)")
            expectProblem(try await ana.requestChallenge(), status: 403, code: "device_revoked")
            #expect(try await ana.devices(accessToken: bio.accessToken).status == 401)
            #expect(try await ana.devices(accessToken: refreshed.accessToken).status == 401)
            expectProblem(try await ana.refresh(bio.refreshToken), status: 401, code: "refresh_token_invalid")
            let afterRevoke = try #require(
                try await server.admin(["devices", "--user", "ana", "--json"]).json([String: [DeviceEntry]].self)["devices"])
            #expect(afterRevoke.count == 1 && afterRevoke[0].revokedAt != nil)
            let again = try await server.admin(["revoke", ana.deviceId])
            #expect(again.status != 0 && again.stderrLines.count == 1, "a revoked device stays revoked: \(again)")

            // admin audit --user ana
            let audit = try await server.admin(["audit", "--user", "ana", "--json"])
            #expect(audit.status == 0, "\(audit)")
            let events = try #require(try audit.json([String: [AuditEntry]].self)["events"])
            let outcomes = events.map { "\($0.event) \($0.outcome)" }
            for expected in [
                "account.create ok", "enrollment.start ok", "enrollment.complete ok", "login.password invalid_credentials",
            ] {
                #expect(outcomes.contains(expected), "\(expected) in \(outcomes)")
            }
            #expect(outcomes.filter { $0 == "login ok" }.count == 2, "\(outcomes)")
            #expect(events.allSatisfy { $0.userId == ana.userId }, "\(outcomes)")
            // Requests come from loopback; the administrator's revocation is recorded as done by "admin".
            #expect(events.filter { $0.event != "device.revoke" }.allSatisfy { $0.ip == "127.0.0.1" }, "\(events.map { $0.ip ?? "nil" })")
            #expect(outcomes.contains("device.revoke ok"), "the revocation is in the user's audit: \(outcomes)")
            #expect(events.first { $0.event == "device.revoke" }?.ip == "admin")
            #expect(events.filter { $0.event == "login" }.allSatisfy { $0.deviceId == ana.deviceId })
            #expect(zip(events, events.dropFirst()).allSatisfy { $0.at <= $1.at }, "events in time order")
            let text = try await server.admin(["audit", "--user", "ana"])
            #expect(text.status == 0 && text.stdoutLines.count == events.count, "\(text)")

            // --since keeps the events at or after a time (RFC 3339, whole seconds).
            let firstLogin = try #require(events.first { $0.event == "login" })
            let sinceText = ISO8601DateFormatter().string(from: firstLogin.at)
            let since = try await server.admin(["audit", "--user", "ana", "--since", sinceText, "--json"])
            let recent = try #require(try since.json([String: [AuditEntry]].self)["events"], "\(since)")
            let cutoff = try #require(ISO8601DateFormatter().date(from: sinceText))
            #expect(recent.count == events.filter { $0.at >= cutoff }.count, "\(since)")
            #expect(recent.contains { $0.event == "login" } && !recent.contains { $0.event == "account.create" && $0.at < cutoff })
            let future = try await server.admin(["audit", "--since", "2999-01-01T00:00:00Z", "--json"])
            #expect(try future.json([String: [AuditEntry]].self)["events"]?.isEmpty == true, "\(future)")
            let badSince = try await server.admin(["audit", "--since", "yesterday"])
            #expect(badSince.status != 0 && badSince.stderr.contains("RFC 3339"), "\(badSince)")

            // No secret anywhere: audit (JSON and text), the admin tools' stderr, the server's log.
            let secrets: [(String, String)] = [
                ("password", EnrolledDevice.password), ("wrong password", wrongPassword), ("PIN", EnrolledDevice.pin),
                ("biometric assertion", bioAssertion), ("PIN assertion", pinAssertion),
                ("refresh token", ana.firstSession.refreshToken), ("refresh token", bio.refreshToken),
                ("refresh token", pin.refreshToken), ("refresh token", refreshed.refreshToken),
                ("access token", bio.accessToken), ("access token", refreshed.accessToken),
            ]
            let log = try server.stderrLog()
            #expect(log.contains("touchstone"), "the server logs on standard error")
            let places = [
                ("audit --json", audit.stdout), ("audit", text.stdout), ("audit stderr", audit.stderr + text.stderr),
                ("server log", log),
            ]
            for (what, secret) in secrets {
                for (place, output) in places {
                    #expect(!output.contains(secret), "the \(what) appears in the \(place)")
                }
                // A JWS is also checked by its signature part alone.
                if let signature = secret.split(separator: ".").last, secret.split(separator: ".").count == 3 {
                    for (place, output) in places {
                        #expect(!output.contains(signature), "the signature of the \(what) appears in the \(place)")
                    }
                }
            }
        }
    }
}
