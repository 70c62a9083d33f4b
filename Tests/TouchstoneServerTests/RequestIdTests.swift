import Foundation
import HTTPTypes
import Testing
import TouchstoneProtocol
import TouchstoneTestSupport

@testable import TouchstoneDomain
@testable import TouchstoneStorage

/// `X-Request-Id` on every answer, in every log line of the request and in its audit events, with the user agent and
/// the actor (PROTOCOL.md "Operations"); on both stores.
@Suite struct RequestIdTests {
    static let requestId = HTTPField.Name("X-Request-Id")!

    static func isAcceptable(_ id: String?) -> Bool {
        guard let id, (1...64).contains(id.count) else { return false }
        return id.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "._-".unicodeScalars.contains($0)) }
    }

    @Test func everyAnswerCarriesTheRequestsOwnIdOrANewOne() async throws {
        try await Harness.run { h in
            let fresh = try await h.send(.get, "/healthz")
            #expect(Self.isAcceptable(fresh.headers[Self.requestId]), "\(fresh.headers)")
            let other = try await h.send(.get, "/healthz")
            #expect(other.headers[Self.requestId] != fresh.headers[Self.requestId])

            let own = try await h.send(.get, "/healthz", headers: [Self.requestId: "trace.A_1-2"])
            #expect(own.headers[Self.requestId] == "trace.A_1-2")
            for bad in ["has space", String(repeating: "a", count: 65), "é", "a/b", "a~b"] {
                let replaced = try await h.send(.get, "/healthz", headers: [Self.requestId: bad])
                let id = replaced.headers[Self.requestId]
                #expect(id != bad && Self.isAcceptable(id), "\(bad) → \(id ?? "none")")
            }
            // Refusals carry it too.
            let refused = try await h.send(.get, "/v1/account", headers: [Self.requestId: "refused-1"])
            #expect(refused.status == .unauthorized && refused.headers[Self.requestId] == "refused-1")
            let unknown = try await h.send(.get, "/v1/nothing-here", headers: [Self.requestId: "unknown-1"])
            #expect(unknown.status == .notFound && unknown.headers[Self.requestId] == "unknown-1")
        }
    }

    @Test func auditEventsNameTheRequestTheUserAgentAndTheActor() async throws {
        try await Harness.run { h in
            let device = try await TestDevice()
            let enrolled = try await h.enroll(device)
            _ = try await h.send(
                .post, "/v1/sessions/password",
                json: PasswordLoginRequest(clientId: "com.example.demo", username: "ana", password: Harness.password),
                headers: [Self.requestId: "req-password", .userAgent: "Browser/1.0"])
            let challenge = try await h.challenge(enrolled.deviceId)
            let assertion = try await device.assertion(deviceId: enrolled.deviceId, challenge: challenge, now: h.now)
            let login = try await h.send(
                .post, "/v1/sessions", json: AssertionLoginRequest(clientId: "com.example.demo", assertion: assertion),
                headers: [Self.requestId: "req-login", .userAgent: "Phone/2.0"])
            #expect(login.status == .created)
            let key = try await h.newAPIKey(for: "com.example.demo")
            let confirmation = try await h.send(
                .post, "/v1/confirmations", json: ConfirmationTests.payment,
                headers: [.authorization: "ApiKey \(key)", Self.requestId: "req-api", .userAgent: "Payments/3.0"])
            #expect(confirmation.status == .created)

            let events = try await h.store.auditEvents(since: nil, userId: nil)
            let password = try #require(events.first { $0.requestId == "req-password" }, "\(events)")
            #expect(password.event == .passwordLogin && password.userAgent == "Browser/1.0" && password.actor?.kind.rawValue == "user")
            let deviceLogin = try #require(events.first { $0.requestId == "req-login" }, "\(events)")
            #expect(deviceLogin.event == .login && deviceLogin.userAgent == "Phone/2.0" && deviceLogin.actor?.kind.rawValue == "device")
            let api = try #require(events.first { $0.requestId == "req-api" }, "\(events)")
            #expect(api.userAgent == "Payments/3.0" && api.actor?.kind.rawValue == "api_key", "\(api)")
        }
    }

    @Test func everyLogLineOfARequestNamesIt() async throws {
        let capture = CapturingLogHandler()
        try await Harness.run(logger: capture.makeLogger()) { h in
            _ = try await h.send(
                .post, "/v1/sessions/password",
                json: PasswordLoginRequest(clientId: "com.example.demo", username: "nobody", password: "wrong password"),
                headers: [Self.requestId: "req-logged"])
        }
        let lines = capture.lines.filter { $0.contains("req-logged") }
        #expect(!lines.isEmpty, "\(capture.lines.suffix(5))")
    }
}
