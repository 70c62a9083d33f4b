import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TouchstoneProtocol
import TouchstoneTestSupport

@testable import TouchstoneDomain
@testable import TouchstoneHTTP
@testable import TouchstoneServer
@testable import TouchstoneStorage

/// Password attempts are counted before their bcrypt runs, in one conditional statement.
@Suite struct ThrottleTests {
    static let wrong = PasswordLoginRequest(clientId: "com.example.demo", username: "ana", password: "wrong horse battery")
    static let right = PasswordLoginRequest(clientId: "com.example.demo", username: "ana", password: Harness.password)

    /// Regression: 30 concurrent wrong guesses for one account were all checked (401 × 29, the right one inside the
    /// burst 201, no 429), because the throttle was read before bcrypt and written after.
    @Test func concurrentGuessesGetNoMoreTriesThanSequentialOnes() async throws {
        // bcrypt at its real cost: the window the regression raced through.
        try await Harness.run(configure: Harness.productionBcrypt) { h in
            try await h.createAccount()
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<30 {
                    group.addTask {
                        // The right password is in the middle of the burst.
                        let body = index == 15 ? Self.right : Self.wrong
                        return Int(try await h.send(.post, "/v1/sessions/password", json: body).status.code)
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            let checked = statuses.filter { $0 != 429 }.count
            #expect(checked <= PasswordThrottle.freeAccountFailures, "\(statuses.sorted())")
            #expect(statuses.filter { $0 == 429 }.count >= 30 - PasswordThrottle.freeAccountFailures)
            #expect(statuses.allSatisfy { [401, 429, 201].contains($0) })
        }
    }

    @Test func enrolmentStartAndStepUpShareTheCount() async throws {
        try await Harness.run { h in
            let enrolled = try await h.enroll(try await TestDevice())
            for _ in 0..<2 {
                try h.expectProblem(try await h.send(.post, "/v1/enrollments", json: Self.wrong), 401, .invalidCredentials)
            }
            for _ in 0..<3 {
                try h.expectProblem(
                    try await h.send(
                        .post, "/v1/step-up", json: PasswordRequest(password: "wrong horse battery"),
                        headers: h.bearer(enrolled.session)),
                    401, .invalidCredentials)
            }
            // Five failures across the three endpoints: the next attempt anywhere waits, even with the right password.
            try h.expectProblem(try await h.send(.post, "/v1/sessions/password", json: Self.right), 429, .tooManyAttempts)
            try h.expectProblem(
                try await h.send(
                    .post, "/v1/step-up", json: PasswordRequest(password: Harness.password), headers: h.bearer(enrolled.session)),
                429, .tooManyAttempts)
            h.clock.advance(by: 2)
            #expect(try await h.send(.post, "/v1/sessions/password", json: Self.right).status == .created)
            // The right password cleared the account's count.
            try h.expectProblem(try await h.send(.post, "/v1/sessions/password", json: Self.wrong), 401, .invalidCredentials)
        }
    }

    /// Regression: an address's failures were forgotten only after 24 h without one, so after about 20 typos behind one
    /// NAT everybody there waited up to 15 minutes. They fade, one a minute.
    @Test func anAddressesFailuresFade() async throws {
        try await Harness.run { h in
            for index in 0..<PasswordThrottle.freeAddressFailures {
                let username = "user\(index)"
                try await h.createAccount(username)
                let typo = PasswordLoginRequest(clientId: "com.example.demo", username: username, password: "typo typo typo")
                try h.expectProblem(try await h.send(.post, "/v1/sessions/password", json: typo), 401, .invalidCredentials)
            }
            let next = PasswordLoginRequest(clientId: "com.example.demo", username: "user0", password: Harness.password)
            // The 20th failure delays the address…
            try h.expectProblem(try await h.send(.post, "/v1/sessions/password", json: next), 429, .tooManyAttempts)
            // …but a few minutes later the address is below its free failures again, without a day's wait.
            h.clock.advance(by: 3 * 60)
            #expect(try await h.send(.post, "/v1/sessions/password", json: next).status == .created)
            let other = PasswordLoginRequest(clientId: "com.example.demo", username: "user1", password: Harness.password)
            #expect(try await h.send(.post, "/v1/sessions/password", json: other).status == .created)
        }
    }

    /// Regression: an IPv6 client's failures were counted per address, so that walking its /64 gave it unlimited
    /// guesses, and an IPv4 client seen as `::ffff:a.b.c.d` had a second count. The audit still names each address.
    @Test func anIPv6AddressesFailuresCountForItsSlash64AndAMappedIPv4AddressesForItsIPv4Address() async throws {
        let proxies = try [CIDR("127.0.0.0/8"), CIDR("::1/128")]
        try await Harness.run(configure: { $0.trustedProxies = proxies }) { h in
            // Over a socket, from a trusted proxy that names the client.
            try await Application(router: h.runtime.router(), logger: h.runtime.environment.logger).test(.live) { client async throws in
                func guess(_ username: String, from address: String) async throws -> Int {
                    let guess = PasswordLoginRequest(clientId: "com.example.demo", username: username, password: "typo typo typo")
                    let response = try await client.execute(
                        uri: "/v1/sessions/password", method: .post,
                        headers: [.xForwardedFor: address, .contentType: "application/json"],
                        body: ByteBuffer(bytes: try WireCoding.encoder().encode(guess)))
                    return Int(response.status.code)
                }
                // Each failure from another address of one /64, each for another account.
                for index in 0..<PasswordThrottle.freeAddressFailures {
                    #expect(try await guess("user\(index)", from: "2001:db8::\(index + 1)") == 401)
                }
                #expect(try await guess("next", from: "2001:db8::ffff:1") == 429, "the /64 has used its free failures")
                #expect(try await guess("next", from: "2001:db8:0:1::1") == 401, "the next /64 counts apart")

                for index in 0..<PasswordThrottle.freeAddressFailures {
                    let address = index.isMultiple(of: 2) ? "192.0.2.1" : "::ffff:192.0.2.1"
                    #expect(try await guess("v4user\(index)", from: address) == 401)
                }
                #expect(try await guess("next", from: "192.0.2.1") == 429, "both spellings share one count")
                #expect(try await guess("next", from: "::ffff:192.0.2.1") == 429)
                #expect(try await guess("next", from: "192.0.2.2") == 401)
            }
            let refused = try await h.store.auditEvents(since: nil, userId: nil).filter { $0.outcome.rawValue == "invalid_credentials" }
            #expect(Set(refused.compactMap(\.ip)).isSuperset(of: ["2001:db8::1", "2001:db8::14", "::ffff:192.0.2.1"]),
                "the audit keeps the full address: \(refused.map(\.ip))")
        }
    }

    @Test func aRefusedAttemptCountsNowhere() async throws {
        try await Harness.run { h in
            let store = try #require(h.store as? SQLStore)
            let blocked = ThrottleCounter(key: "account:blocked", decaySeconds: 0) { _ in 600 }
            let free = ThrottleCounter(key: "address:free", decaySeconds: 0) { _ in 0 }
            #expect(try await h.store.countAttempt([blocked], at: h.now) == nil)
            // The first counter is blocked now: the attempt is refused and the second counter is not counted either.
            let until = try await h.store.countAttempt([blocked, free], at: h.now)
            // Stored in whole seconds.
            #expect(abs((until?.timeIntervalSince(h.now) ?? 0) - 600) < 1)
            let rows = try await store.provider.read { database in
                try await database.raw("SELECT key, failures FROM password_throttle ORDER BY key").all()
                    .map { "\(try $0.string("key"))=\(try $0.int("failures"))" }
            }
            #expect(rows == ["account:blocked=1"])
        }
    }
}
