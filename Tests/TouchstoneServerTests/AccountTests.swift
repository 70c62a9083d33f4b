import Foundation
import HTTPTypes
import NIOPosix
import Testing
import TouchstoneProtocol
import TouchstoneTestSupport

@testable import TouchstoneDomain
@testable import TouchstoneHTTP
@testable import TouchstoneServer
@testable import TouchstoneStorage

@Suite struct AccountTests {
    @Test func createsAnAccountOnce() async throws {
        try await Harness.run { h in
            let userId = try await h.createAccount("ana")
            #expect(!userId.isEmpty)
            let again = try await h.send(.post, "/v1/accounts", json: CreateAccountRequest(username: "ana", password: Harness.password))
            try h.expectProblem(again, 409, .usernameTaken)
        }
    }

    @Test(arguments: ["short", String(repeating: "p", count: 1025)])
    func refusesWeakPasswords(_ password: String) async throws {
        try await Harness.run { h in
            let response = try await h.send(.post, "/v1/accounts", json: CreateAccountRequest(username: "ana", password: password))
            try h.expectProblem(response, 400, .weakPassword)
            #expect(try await h.store.user(username: "ana") == nil)
        }
    }

    @Test func refusesMalformedUsernames() async throws {
        try await Harness.run { h in
            for username in ["", " ana", "a\u{0}b", String(repeating: "u", count: 129)] {
                let response = try await h.send(
                    .post, "/v1/accounts", json: CreateAccountRequest(username: username, password: Harness.password))
                try h.expectProblem(response, 400, .invalidRequest)
            }
            #expect(try await h.store.users().isEmpty)
        }
    }

    @Test func signupCanBeDisabled() async throws {
        try await Harness.run(configure: { $0.selfSignup = false }) { h in
            let response = try await h.send(.post, "/v1/accounts", json: CreateAccountRequest(username: "ana", password: Harness.password))
            try h.expectProblem(response, 403, .signupDisabled)
        }
    }

    @Test func passwordsAreStoredWithBcryptCost12() async throws {
        try await Harness.run(configure: Harness.productionBcrypt) { h in
            try await h.createAccount("ana")
            let user = try #require(try await h.store.user(username: "ana"))
            #expect(user.passwordHash.hasPrefix(PasswordHasher.prehashedPrefix + "$2b$12$"))
            #expect(!user.passwordHash.contains(Harness.password))
        }
    }

    @Test func bcryptCostBelow12IsRefused() async throws {
        await #expect(throws: ConfigurationError.self) { try await PasswordHasher(cost: 11) }
    }

    @Test func bcryptRunsOnTheThreadPoolNotTheCaller() async throws {
        let pool = NIOThreadPool(numberOfThreads: 1)
        pool.start()
        let hasher = try await PasswordHasher(cost: 12, threadPool: pool)
        #expect(try await hasher.verify("x", against: try await hasher.hash("x")))
        try await pool.shutdownGracefully()
        // With its pool gone, hashing cannot run anywhere else: it is never done inline on the caller's thread.
        await #expect(throws: (any Error).self) { try await hasher.hash("secret") }
    }

    @Test func unknownUsernamesGetTheSameAnswer() async throws {
        try await Harness.run { h in
            try await h.createAccount("ana")
            let request = { (username: String) in
                PasswordLoginRequest(clientId: "com.example.demo", username: username, password: "wrong password")
            }
            let known = try await h.send(.post, "/v1/sessions/password", json: request("ana"))
            let unknown = try await h.send(.post, "/v1/sessions/password", json: request("nobody"))
            try h.expectProblem(known, 401, .invalidCredentials)
            try h.expectProblem(unknown, 401, .invalidCredentials)
            #expect(known.body == unknown.body)
        }
    }

    @Test func unknownUsernamesCostABcryptVerification() async throws {
        let pool = NIOThreadPool(numberOfThreads: 1)
        pool.start()
        let hasher = try await PasswordHasher(cost: 12, threadPool: pool)
        #expect(hasher.decoy.hasPrefix(PasswordHasher.prehashedPrefix + "$2b$12$"))
        #expect(try await hasher.verify("anything", against: nil) == false)
        try await pool.shutdownGracefully()
        // The unknown-user path (no hash) still goes to bcrypt: with the pool gone it cannot answer at all.
        await #expect(throws: (any Error).self) { try await hasher.verify("anything", against: nil) }
    }

    @Test func passwordSessionIsAAL1WithoutDevice() async throws {
        try await Harness.run { h in
            try await h.createAccount("ana")
            let response = try await h.send(
                .post, "/v1/sessions/password",
                json: PasswordLoginRequest(clientId: "com.example.demo", username: "ana", password: Harness.password))
            #expect(response.status == .created)
            #expect(response.headers[.cacheControl] == "no-store")
            let session = try h.decode(Session.self, response)
            #expect(session.amr == ["pwd"])
            #expect(session.acr == "aal1")
            #expect(session.deviceId == nil)
            #expect(String(buffer: response.body).contains(#""deviceId":null"#))
            let claims = try jwtParts(session.accessToken).payload
            #expect(claims["acr"] as? String == "aal1")
            #expect(claims["cnf"] == nil)
            #expect(claims["did"] == nil)
        }
    }

    @Test func passwordSessionForUnknownApp() async throws {
        try await Harness.run { h in
            try await h.createAccount("ana")
            let response = try await h.send(
                .post, "/v1/sessions/password",
                json: PasswordLoginRequest(clientId: "com.nowhere", username: "ana", password: Harness.password))
            try h.expectProblem(response, 404, .appNotFound)
        }
    }

    @Test func passwordFailuresAreThrottledNeverLocked() async throws {
        try await Harness.run { h in
            try await h.createAccount("ana")
            let wrong = PasswordLoginRequest(clientId: "com.example.demo", username: "ana", password: "wrong password")
            var statuses: [Int] = []
            for _ in 0..<6 {
                statuses.append(Int(try await h.send(.post, "/v1/sessions/password", json: wrong).status.code))
            }
            #expect(statuses.prefix(5).allSatisfy { $0 == 401 })
            let throttled = try await h.send(.post, "/v1/sessions/password", json: wrong)
            try h.expectProblem(throttled, 429, .tooManyAttempts)
            let retryAfter = try #require(throttled.headers[.retryAfter].flatMap { Int($0) })
            #expect(retryAfter >= 1)
            // The right password is also delayed, not refused for ever: after the delay it works.
            let right = PasswordLoginRequest(clientId: "com.example.demo", username: "ana", password: Harness.password)
            try h.expectProblem(try await h.send(.post, "/v1/sessions/password", json: right), 429, .tooManyAttempts)
            h.clock.advance(by: TimeInterval(retryAfter))
            #expect(try await h.send(.post, "/v1/sessions/password", json: right).status == .created)
        }
    }

    @Test func throttlingReachesTheEleventhFailureAtTheLatest() async throws {
        try await Harness.run { h in
            try await h.createAccount("ana")
            let wrong = PasswordLoginRequest(clientId: "com.example.demo", username: "ana", password: "wrong password")
            var failures = 0
            // An attacker who waits out every delay is still delayed by the 11th consecutive failure.
            while failures < 10 {
                let response = try await h.send(.post, "/v1/sessions/password", json: wrong)
                if response.status == .tooManyRequests {
                    h.clock.advance(by: TimeInterval(Int(response.headers[.retryAfter] ?? "1") ?? 1))
                } else {
                    failures += 1
                }
            }
            try h.expectProblem(try await h.send(.post, "/v1/sessions/password", json: wrong), 429, .tooManyAttempts)
        }
    }

    @Test func throttlingAppliesToUnknownUsernamesToo() async throws {
        try await Harness.run { h in
            let wrong = PasswordLoginRequest(clientId: "com.example.demo", username: "ghost", password: "wrong password")
            for _ in 0..<5 {
                try h.expectProblem(try await h.send(.post, "/v1/enrollments", json: wrong), 401, .invalidCredentials)
            }
            try h.expectProblem(try await h.send(.post, "/v1/enrollments", json: wrong), 429, .tooManyAttempts)
        }
    }
}
