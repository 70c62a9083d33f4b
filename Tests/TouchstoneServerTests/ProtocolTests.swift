import Foundation
import HTTPTypes
import HummingbirdTesting
import SQLKit
import Testing
import TouchstoneProtocol
import TouchstoneTestSupport

@testable import TouchstoneDomain
@testable import TouchstoneHTTP
@testable import TouchstoneServer
@testable import TouchstoneStorage

@Suite struct ProtocolTests {
    @Test func healthPolicyAndOpenAPI() async throws {
        try await Harness.run { h in
            #expect(try await h.send(.get, "/healthz").status == .ok)
            let policy = try h.decode(AppPolicy.self, try await h.send(.get, "/v1/apps/com.example.demo/policy"))
            #expect(policy == AppPolicy(clientId: "com.example.demo", publisher: "demo"))
            #expect(policy.pinLength == .init(min: 6, max: 8))
            try h.expectProblem(try await h.send(.get, "/v1/apps/com.nowhere/policy"), 404, .appNotFound)
            let openAPI = try await h.send(.get, "/openapi.yaml")
            #expect(openAPI.headers[.contentType] == "application/yaml")
            #expect(String(buffer: openAPI.body).hasPrefix("openapi: 3.1"))
            #expect(String(buffer: openAPI.body).contains("/v1/sessions/refresh:"))
        }
    }

    @Test func securityHeadersOnEveryAnswer() async throws {
        try await Harness.run { h in
            for response in [try await h.send(.get, "/healthz"), try await h.send(.get, "/nope")] {
                #expect(response.headers[.xContentTypeOptions] == "nosniff")
                #expect(response.headers[.referrerPolicy] == "no-referrer")
                #expect(response.headers[.contentSecurityPolicy]?.contains("frame-ancestors 'none'") == true)
            }
        }
    }

    @Test func unknownRoutesAndMethodsAreProblems() async throws {
        try await Harness.run { h in
            try h.expectProblem(try await h.send(.get, "/v2/anything"), 404, .notFound)
            let wrongMethod = try await h.send(.put, "/v1/accounts")
            #expect((400..<500).contains(Int(wrongMethod.status.code)))
            _ = try h.problem(wrongMethod)
        }
    }

    @Test func bodiesOver64KiBAre413() async throws {
        try await Harness.run { h in
            let big = #"{"username":"ana","password":""# + String(repeating: "x", count: 70_000) + #""}"#
            try h.expectProblem(try await h.send(.post, "/v1/accounts", raw: big), 413, .payloadTooLarge)
            #expect(try await h.store.users().isEmpty)
            let justUnder = #"{"username":"ana","password":""# + String(repeating: "x", count: 1_100) + #""}"#
            try h.expectProblem(try await h.send(.post, "/v1/accounts", raw: justUnder), 400, .weakPassword)
        }
    }

    /// Every field of every body replaced by values of every wrong shape, and removed: never a 500.
    @Test func malformedInputNeverAnswers500() async throws {
        try await Harness.run { h in
            let device = try await TestDevice()
            let enrolled = try await h.enroll(device)
            let started = try await h.startEnrollment()
            let completion = try await device.completion(enrollmentId: started.enrollmentId, challenge: started.challenge, pin: Harness.pin, now: h.now)
            let challenge = try await h.challenge(enrolled.deviceId)
            let assertion = try await device.assertion(deviceId: enrolled.deviceId, challenge: challenge, now: h.now)
            let bodies: [(String, any Encodable)] = [
                ("/v1/accounts", CreateAccountRequest(username: "zed", password: Harness.password)),
                ("/v1/enrollments", PasswordLoginRequest(clientId: "com.example.demo", username: "ana", password: "wrong pass")),
                ("/v1/enrollments/\(started.enrollmentId)/complete", completion),
                ("/v1/sessions/password", PasswordLoginRequest(clientId: "com.example.demo", username: "ana", password: "wrong pass")),
                ("/v1/challenges", ChallengeRequest(deviceId: enrolled.deviceId)),
                ("/v1/sessions", AssertionLoginRequest(clientId: "com.example.demo", assertion: assertion)),
                ("/v1/sessions/refresh", RefreshRequest(refreshToken: "x")),
                ("/v1/introspect", IntrospectionRequest(token: "x")),
            ]
            let wrongValues: [Any] = [
                NSNull(), 0, -1, 1e300, true, "", "\u{0}", "💥", String(repeating: "é", count: 5_000), [] as [Any],
                ["nested": ["deeper": [1, 2, 3]]], "a.b.c", "eyJhbGciOiJub25lIn0.e30.",
            ]
            var answered = 0
            for (path, body) in bodies {
                let valid = try #require(try JSONSerialization.jsonObject(with: try WireCoding.encoder().encode(body)) as? [String: Any])
                var variants: [[String: Any]] = []
                for key in valid.keys {
                    var removed = valid
                    removed[key] = nil
                    variants.append(removed)
                    for value in wrongValues {
                        var changed = valid
                        changed[key] = value
                        variants.append(changed)
                    }
                    if var nested = valid[key] as? [String: Any] {
                        for inner in nested.keys {
                            let original = nested[inner]
                            for value in wrongValues.prefix(6) {
                                nested[inner] = value
                                var changed = valid
                                changed[key] = nested
                                variants.append(changed)
                            }
                            nested[inner] = original
                        }
                    }
                }
                for variant in variants {
                    let data = try JSONSerialization.data(withJSONObject: variant)
                    let response = try await h.send(.post, path, raw: String(decoding: data, as: UTF8.self))
                    #expect(response.status.code < 500, "\(path) answered \(response.status) to \(String(decoding: data, as: UTF8.self).prefix(300))")
                    answered += 1
                }
                for raw in ["", "null", "[]", "{", "\"text\"", "{\"a\":", String(repeating: "[", count: 10_000), "\u{FEFF}{}"] {
                    let response = try await h.send(.post, path, raw: raw)
                    #expect(response.status.code < 500, "\(path) answered \(response.status) to \(raw.prefix(40))")
                    answered += 1
                }
            }
            for path in ["/v1/apps/%00/policy", "/v1/enrollments/%FF", "/v1/devices/" + String(repeating: "a", count: 4_000)] {
                #expect(try await h.send(.get, path).status.code < 500)
                #expect(try await h.send(.delete, path, headers: h.bearer(enrolled.session)).status.code < 500)
            }
            for header in ["Bearer", "Bearer ", "Basic abc", "Bearer \u{7F}", "ApiKey", "TouchstoneDevice ..."] {
                #expect(try await h.send(.get, "/v1/devices", headers: [.authorization: header]).status == .unauthorized)
            }
            #expect(answered > 300)
        }
    }

    /// A refused request changes nothing stored beyond the counters the protocol names.
    @Test func refusedRequestsChangeNothingStored() async throws {
        try await Harness.run { h in
            let device = try await TestDevice()
            let enrolled = try await h.enroll(device)
            let started = try await h.startEnrollment()
            let before = try await snapshot(h)

            // Refusals of every kind that are not named counters.
            _ = try await h.send(.post, "/v1/accounts", json: CreateAccountRequest(username: "ana", password: Harness.password))
            _ = try await h.send(.post, "/v1/accounts", json: CreateAccountRequest(username: "new", password: "short"))
            _ = try await h.completeEnrollment(try await TestDevice(), started, pin: "111111")
            _ = try await h.completeEnrollment(try await TestDevice(compromised: true), started)
            var wrongProof = try await device.completion(enrollmentId: started.enrollmentId, challenge: "b3RoZXI", pin: Harness.pin, now: h.now)
            wrongProof.device.name = "x"
            _ = try await h.send(.post, "/v1/enrollments/\(started.enrollmentId)/complete", json: wrongProof)
            _ = try await h.send(.post, "/v1/sessions", json: AssertionLoginRequest(clientId: "com.example.demo", assertion: "x.y.z"))
            _ = try await h.send(.post, "/v1/sessions/refresh", json: RefreshRequest(refreshToken: enrolled.session.refreshToken))
            _ = try await h.send(.post, "/v1/sessions/refresh", json: RefreshRequest(refreshToken: "unknown"))
            _ = try await h.send(.delete, "/v1/devices/unknown", headers: h.bearer(enrolled.session))
            _ = try await h.send(.post, "/v1/introspect", json: IntrospectionRequest(token: "x"))
            _ = try await h.send(.post, "/v1/challenges", json: ChallengeRequest(deviceId: enrolled.deviceId, purpose: "other"))

            #expect(try await snapshot(h) == before)
            // And the refused enrolment is still there to be completed.
            #expect(try await h.completeEnrollment(try await TestDevice(name: "x"), started).status == .accepted)
        }
    }

    /// Every table but the named counters (challenges, used tokens, throttling, audit), as text.
    func snapshot(_ h: Harness) async throws -> [String: [String]] {
        let store = try #require(h.store as? SQLStore)
        let tables = ["apps", "users", "devices", "enrollments", "sessions", "refresh_tokens", "api_keys", "server_keys"]
        return try await store.provider.read { database in
            var result: [String: [String]] = [:]
            for table in tables {
                guard let columns = try await database.raw("SELECT * FROM \(unsafeRaw: table)").first()?.allColumns else {
                    result[table] = []
                    continue
                }
                let select = columns.map { "COALESCE(CAST(\($0) AS TEXT), 'NULL')" }.joined(separator: " || '|' || ")
                result[table] = try await database.raw("SELECT \(unsafeRaw: select) AS line FROM \(unsafeRaw: table) ORDER BY 1")
                    .all().map { try $0.string("line") }
            }
            return result
        }
    }

    @Test func everyEnrolmentLoginRefusalLockoutAndRevocationIsAudited() async throws {
        try await Harness.run { h in
            let device = try await TestDevice()
            let enrolled = try await h.enroll(device)
            _ = try await h.login(device, deviceId: enrolled.deviceId)
            for _ in 0..<5 {
                _ = try await h.login(device, deviceId: enrolled.deviceId, pin: "975310")
            }
            _ = try await h.send(.post, "/v1/enrollments", json: PasswordLoginRequest(clientId: "com.example.demo", username: "ana", password: "wrong pass"))
            _ = try await h.send(.post, "/v1/sessions/refresh", json: RefreshRequest(refreshToken: enrolled.session.refreshToken))
            _ = try await h.send(.delete, "/v1/devices/\(enrolled.deviceId)", headers: h.bearer(enrolled.session))
            _ = try await h.send(.post, "/v1/challenges", json: ChallengeRequest(deviceId: enrolled.deviceId))
            let events = try await h.store.auditEvents(since: nil, userId: enrolled.session.userId)
            let seen = Set(events.map { "\($0.event) \($0.outcome)" })
            for expected in [
                "account.create ok", "enrollment.start ok", "enrollment.complete ok", "login ok", "login pin_incorrect",
                "login pin_locked", "enrollment.start invalid_credentials", "device.revoke ok",
                "refresh device_proof_required", "challenge device_revoked",
            ] {
                #expect(seen.contains(expected), "missing audit event \(expected)")
            }
            #expect(events.allSatisfy { $0.userId == enrolled.session.userId })
        }
    }

    @Test func secretsNeverReachTheLogOrTheAudit() async throws {
        let capture = CapturingLogHandler()
        try await Harness.run(logger: capture.makeLogger()) { h in
            let device = try await TestDevice()
            let enrolled = try await h.enroll(device)
            let challenge = try await h.challenge(enrolled.deviceId)
            let assertion = try await device.assertion(deviceId: enrolled.deviceId, challenge: challenge, pin: Harness.pin, now: h.now)
            let session = try h.decode(Session.self, try await h.send(.post, "/v1/sessions", json: AssertionLoginRequest(clientId: "com.example.demo", assertion: assertion)))
            _ = try await h.send(.post, "/v1/sessions", json: AssertionLoginRequest(clientId: "com.example.demo", assertion: assertion))
            _ = try await h.send(.post, "/v1/sessions/password", json: PasswordLoginRequest(clientId: "com.example.demo", username: "ana", password: "a wrong secret"))
            let audit = try await h.store.auditEvents(since: nil, userId: nil).map { "\($0)" }
            let text = (capture.lines + audit).joined(separator: "\n")
            #expect(!capture.lines.isEmpty)
            for secret in [Harness.password, "a wrong secret", Harness.pin, assertion, session.accessToken, session.refreshToken,
                           enrolled.session.refreshToken, challenge] {
                #expect(!text.contains(secret), "a secret reached the log or the audit")
            }
        }
    }
}
