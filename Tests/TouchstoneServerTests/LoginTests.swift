import Foundation
import HTTPTypes
import Testing
import TouchstoneCrypto
import TouchstoneProtocol
import TouchstoneTestSupport

@testable import TouchstoneDomain
@testable import TouchstoneHTTP
@testable import TouchstoneServer
@testable import TouchstoneStorage

@Suite struct LoginTests {
    @Test func challengesAreForKnownActiveDevicesAndLoginOnly() async throws {
        try await Harness.run { h in
            let enrolled = try await h.enroll(try await TestDevice())
            let issued = try await h.send(.post, "/v1/challenges", json: ChallengeRequest(deviceId: enrolled.deviceId))
            #expect(issued.status == .created)
            let challenge = try h.decode(ChallengeIssued.self, issued)
            #expect(Base64URL.decode(challenge.challenge)?.count == 32)
            try h.expectProblem(try await h.send(.post, "/v1/challenges", json: ChallengeRequest(deviceId: "nope")), 404, .deviceNotFound)
            try h.expectProblem(
                try await h.send(.post, "/v1/challenges", json: ChallengeRequest(deviceId: enrolled.deviceId, purpose: "step-up")),
                400, .invalidRequest)
            _ = try await h.store.revokeDevice(id: enrolled.deviceId, reason: "test", at: h.now, notices: [])
            try h.expectProblem(try await h.send(.post, "/v1/challenges", json: ChallengeRequest(deviceId: enrolled.deviceId)), 403, .deviceRevoked)
        }
    }

    @Test(arguments: TestDevice.Algorithm.allCases)
    func biometricAndPINLogin(_ algorithm: TestDevice.Algorithm) async throws {
        try await Harness.run { h in
            let device = try await TestDevice(algorithm: algorithm)
            let enrolled = try await h.enroll(device)
            let bio = try await h.login(device, deviceId: enrolled.deviceId)
            #expect(bio.status == .created)
            #expect(bio.headers[.cacheControl] == "no-store")
            let session = try h.decode(Session.self, bio)
            #expect(session.amr == ["bio"])
            #expect(session.acr == "aal2")
            #expect(session.deviceId == enrolled.deviceId)
            #expect(session.tokenType == "Bearer")
            #expect(session.expiresIn == 600)
            let token = try jwtParts(session.accessToken)
            #expect(token.header["typ"] as? String == "at+jwt")
            #expect(token.header["alg"] as? String == "ES256")
            #expect(token.payload["acr"] as? String == "aal2")
            #expect(token.payload["did"] as? String == enrolled.deviceId)
            #expect(token.payload["aud"] as? String == "com.example.demo")
            #expect(token.payload["iss"] as? String == Harness.issuer)
            #expect((token.payload["auth_time"] as? NSNumber)?.int64Value == Int64(h.now.timeIntervalSince1970))
            #expect((token.payload["cnf"] as? [String: String])?["jkt"] == device.deviceKey.publicKey.thumbprint)

            let pin = try await h.login(device, deviceId: enrolled.deviceId, pin: Harness.pin)
            #expect(pin.status == .created)
            #expect(try h.decode(Session.self, pin).amr == ["pin"])
        }
    }

    @Test func assertionsThatDoNotVerifyAreRefused() async throws {
        try await Harness.run { h in
            let device = try await TestDevice()
            let enrolled = try await h.enroll(device)
            let stranger = try await TestDevice()
            let login = { (assertion: String) in
                try await h.send(.post, "/v1/sessions", json: AssertionLoginRequest(clientId: "com.example.demo", assertion: assertion))
            }
            let challenge = try await h.challenge(enrolled.deviceId)
            try h.expectProblem(try await login("garbage"), 401, .invalidAssertion)
            try h.expectProblem(try await login(try await stranger.assertion(deviceId: enrolled.deviceId, challenge: challenge, now: h.now)), 401, .invalidAssertion)
            try h.expectProblem(try await login(try await device.assertion(deviceId: "unknown", challenge: challenge, now: h.now)), 401, .invalidAssertion)
            // Biometric key with a PIN, device key without one.
            let bioWithPIN = AssertionClaims(
                iss: enrolled.deviceId, aud: Harness.issuer, iat: TestDevice.seconds(h.now), exp: TestDevice.seconds(h.now) + 60,
                nonce: challenge, dfp: device.fingerprint, pin: Harness.pin)
            try h.expectProblem(try await login(try await device.biometricKey!.sign(bioWithPIN)), 401, .invalidAssertion)
            var deviceNoPIN = bioWithPIN
            deviceNoPIN.pin = nil
            try h.expectProblem(try await login(try await device.deviceKey.sign(deviceNoPIN)), 401, .invalidAssertion)
            // Tampered payload.
            let valid = try await device.assertion(deviceId: enrolled.deviceId, challenge: challenge, now: h.now)
            var parts = valid.split(separator: ".").map(String.init)
            parts[1] = Base64URL.encode(Data(#"{"iss":"\#(enrolled.deviceId)","aud":"\#(Harness.issuer)","iat":1,"exp":2,"nonce":"x","dfp":"y"}"#.utf8))
            try h.expectProblem(try await login(parts.joined(separator: ".")), 401, .invalidAssertion)
            // None of these consumed the challenge.
            #expect(try await login(valid).status == .created)
        }
    }

    @Test func audienceAndTimeLimitsAreEnforced() async throws {
        try await Harness.run { h in
            var device = try await TestDevice()
            let enrolled = try await h.enroll(device)
            let login = { (assertion: String) in
                try await h.send(.post, "/v1/sessions", json: AssertionLoginRequest(clientId: "com.example.demo", assertion: assertion))
            }
            let challenge = try await h.challenge(enrolled.deviceId)
            try h.expectProblem(try await login(try await device.assertion(deviceId: enrolled.deviceId, challenge: challenge, now: h.now, lifetime: 121)), 401, .invalidAssertion)
            try h.expectProblem(try await login(try await device.assertion(deviceId: enrolled.deviceId, challenge: challenge, now: h.now + 31)), 401, .invalidAssertion)
            try h.expectProblem(try await login(try await device.assertion(deviceId: enrolled.deviceId, challenge: challenge, now: h.now - 61)), 401, .invalidAssertion)
            let rightAudience = device.audience
            device.audience = "https://evil.example"
            try h.expectProblem(try await login(try await device.assertion(deviceId: enrolled.deviceId, challenge: challenge, now: h.now)), 401, .invalidAssertion)
            device.audience = rightAudience
            // Within the limits: 120 s lifetime, iat 30 s ahead.
            #expect(try await login(try await device.assertion(deviceId: enrolled.deviceId, challenge: challenge, now: h.now + 30, lifetime: 120)).status == .created)
        }
    }

    @Test func challengesAreSingleUseBoundAndExpire() async throws {
        try await Harness.run { h in
            let device = try await TestDevice()
            let enrolled = try await h.enroll(device)
            let login = { (assertion: String) in
                try await h.send(.post, "/v1/sessions", json: AssertionLoginRequest(clientId: "com.example.demo", assertion: assertion))
            }
            let challenge = try await h.challenge(enrolled.deviceId)
            let first = try await device.assertion(deviceId: enrolled.deviceId, challenge: challenge, now: h.now)
            #expect(try await login(first).status == .created)
            // The same token again, and a new token over the used challenge.
            try h.expectProblem(try await login(first), 401, .challengeInvalid)
            try h.expectProblem(try await login(try await device.assertion(deviceId: enrolled.deviceId, challenge: challenge, now: h.now)), 401, .challengeInvalid)
            // A challenge never issued.
            try h.expectProblem(try await login(try await device.assertion(deviceId: enrolled.deviceId, challenge: "bm90LWlzc3VlZA", now: h.now)), 401, .challengeInvalid)
            // A challenge of another device.
            let other = try await TestDevice(name: "other")
            let otherEnrolled = try await h.enroll(other, username: "bob")
            let otherChallenge = try await h.challenge(otherEnrolled.deviceId)
            try h.expectProblem(try await login(try await device.assertion(deviceId: enrolled.deviceId, challenge: otherChallenge, now: h.now)), 401, .challengeInvalid)
            // Expired after 60 s.
            let old = try await h.challenge(enrolled.deviceId)
            h.clock.advance(by: 61)
            try h.expectProblem(try await login(try await device.assertion(deviceId: enrolled.deviceId, challenge: old, now: h.now)), 401, .challengeInvalid)
        }
    }

    @Test func aChallengeIsConsumedByTheFirstVerifiedAssertionEvenIfLoginFails() async throws {
        try await Harness.run { h in
            let device = try await TestDevice()
            let enrolled = try await h.enroll(device)
            let challenge = try await h.challenge(enrolled.deviceId)
            let wrong = try await device.assertion(deviceId: enrolled.deviceId, challenge: challenge, pin: "975310", now: h.now)
            let login = { (assertion: String) in
                try await h.send(.post, "/v1/sessions", json: AssertionLoginRequest(clientId: "com.example.demo", assertion: assertion))
            }
            try h.expectProblem(try await login(wrong), 401, .pinIncorrect)
            let right = try await device.assertion(deviceId: enrolled.deviceId, challenge: challenge, pin: Harness.pin, now: h.now)
            try h.expectProblem(try await login(right), 401, .challengeInvalid)
        }
    }

    @Test func concurrentAnswersToOneChallengeWinOnce() async throws {
        try await Harness.run { h in
            let device = try await TestDevice()
            let enrolled = try await h.enroll(device)
            let challenge = try await h.challenge(enrolled.deviceId)
            var assertions: [String] = []
            for _ in 0..<12 {
                assertions.append(try await device.assertion(deviceId: enrolled.deviceId, challenge: challenge, now: h.now))
            }
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for assertion in assertions {
                    group.addTask {
                        Int(try await h.send(.post, "/v1/sessions", json: AssertionLoginRequest(clientId: "com.example.demo", assertion: assertion)).status.code)
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 201 }.count == 1)
            #expect(statuses.filter { $0 == 401 }.count == 11)
        }
    }

    @Test func aReplayedWrongPINDoesNotCountTwice() async throws {
        try await Harness.run { h in
            let device = try await TestDevice()
            let enrolled = try await h.enroll(device)
            let challenge = try await h.challenge(enrolled.deviceId)
            let wrong = try await device.assertion(deviceId: enrolled.deviceId, challenge: challenge, pin: "975310", now: h.now)
            let request = AssertionLoginRequest(clientId: "com.example.demo", assertion: wrong)
            #expect(try h.problem(try await h.send(.post, "/v1/sessions", json: request)).attemptsRemaining == 4)
            for _ in 0..<5 {
                try h.expectProblem(try await h.send(.post, "/v1/sessions", json: request), 401, .challengeInvalid)
            }
            #expect(try await h.store.device(id: enrolled.deviceId)?.pinFailures == 1)
        }
    }

    @Test func wrongPINsCountDownThenLock() async throws {
        try await Harness.run { h in
            let device = try await TestDevice()
            let enrolled = try await h.enroll(device)
            var remaining: [Int?] = []
            for _ in 0..<4 {
                let response = try await h.login(device, deviceId: enrolled.deviceId, pin: "975310")
                remaining.append(try h.expectProblem(response, 401, .pinIncorrect).attemptsRemaining)
            }
            #expect(remaining == [4, 3, 2, 1])
            try h.expectProblem(try await h.login(device, deviceId: enrolled.deviceId, pin: "975310"), 423, .pinLocked)
            // Locked: the right PIN is refused too, and nothing more is counted.
            try h.expectProblem(try await h.login(device, deviceId: enrolled.deviceId, pin: Harness.pin), 423, .pinLocked)
            #expect(try await h.store.device(id: enrolled.deviceId)?.pinFailures == 5)
            // Biometric login still works.
            #expect(try await h.login(device, deviceId: enrolled.deviceId).status == .created)
        }
    }

    @Test func aRightPINResetsTheCount() async throws {
        try await Harness.run { h in
            let device = try await TestDevice()
            let enrolled = try await h.enroll(device)
            for _ in 0..<3 {
                _ = try await h.login(device, deviceId: enrolled.deviceId, pin: "975310")
            }
            #expect(try await h.login(device, deviceId: enrolled.deviceId, pin: Harness.pin).status == .created)
            #expect(try await h.store.device(id: enrolled.deviceId)?.pinFailures == 0)
            let next = try await h.login(device, deviceId: enrolled.deviceId, pin: "975310")
            #expect(try h.problem(next).attemptsRemaining == 4)
        }
    }

    @Test func twentyParallelWrongPINsNeverCountPastTheLimit() async throws {
        try await Harness.run { h in
            let device = try await TestDevice()
            let enrolled = try await h.enroll(device)
            var assertions: [String] = []
            for _ in 0..<20 {
                let challenge = try await h.challenge(enrolled.deviceId)
                assertions.append(try await device.assertion(deviceId: enrolled.deviceId, challenge: challenge, pin: "975310", now: h.now))
            }
            let problems = try await withThrowingTaskGroup(of: Problem.self) { group in
                for assertion in assertions {
                    group.addTask {
                        try h.problem(try await h.send(.post, "/v1/sessions", json: AssertionLoginRequest(clientId: "com.example.demo", assertion: assertion)))
                    }
                }
                return try await group.reduce(into: [Problem]()) { $0.append($1) }
            }
            let incorrect = problems.filter { $0.code == .pinIncorrect }
            let locked = problems.filter { $0.code == .pinLocked }
            #expect(incorrect.count == 4)
            #expect(locked.count == 16)
            #expect(Set(incorrect.compactMap(\.attemptsRemaining)) == [4, 3, 2, 1])
            #expect(try await h.store.device(id: enrolled.deviceId)?.pinFailures == 5)
        }
    }

    @Test func aBindingMismatchRevokesTheDevice() async throws {
        try await Harness.run { h in
            let device = try await TestDevice()
            let enrolled = try await h.enroll(device)
            let challenge = try await h.challenge(enrolled.deviceId)
            let moved = try await device.assertion(
                deviceId: enrolled.deviceId, challenge: challenge,
                fingerprint: DeviceFingerprint.of(vendorId: device.description.vendorId, model: device.description.model, name: "Renamed"),
                now: h.now)
            let response = try await h.send(.post, "/v1/sessions", json: AssertionLoginRequest(clientId: "com.example.demo", assertion: moved))
            try h.expectProblem(response, 409, .bindingMismatch)
            #expect(try await h.store.device(id: enrolled.deviceId)?.revokedAt != nil)
            try h.expectProblem(try await h.send(.post, "/v1/challenges", json: ChallengeRequest(deviceId: enrolled.deviceId)), 403, .deviceRevoked)
            try h.expectProblem(try await h.send(.get, "/v1/devices", headers: h.bearer(enrolled.session)), 401, .unauthorized)
        }
    }

    @Test func aRevokedDeviceCannotLogInWithAnOutstandingChallenge() async throws {
        try await Harness.run { h in
            let device = try await TestDevice()
            let enrolled = try await h.enroll(device)
            let challenge = try await h.challenge(enrolled.deviceId)
            _ = try await h.store.revokeDevice(id: enrolled.deviceId, reason: "admin", at: h.now, notices: [])
            let assertion = try await device.assertion(deviceId: enrolled.deviceId, challenge: challenge, now: h.now)
            try h.expectProblem(
                try await h.send(.post, "/v1/sessions", json: AssertionLoginRequest(clientId: "com.example.demo", assertion: assertion)),
                403, .deviceRevoked)
        }
    }

    @Test func compromisedDevicesAreRefusedAtLoginWhenThePolicySaysSo() async throws {
        try await Harness.run { h in
            try await h.saveApp(AppPolicy(clientId: "com.example.lax", publisher: "demo", refuseCompromisedDevices: false))
            let device = try await TestDevice()
            let enrolled = try await h.enroll(device)
            let challenge = try await h.challenge(enrolled.deviceId)
            let assertion = try await device.assertion(deviceId: enrolled.deviceId, challenge: challenge, compromised: true, now: h.now)
            try h.expectProblem(
                try await h.send(.post, "/v1/sessions", json: AssertionLoginRequest(clientId: "com.example.demo", assertion: assertion)),
                403, .deviceCompromised)
            let again = try await h.challenge(enrolled.deviceId)
            let lax = try await device.assertion(deviceId: enrolled.deviceId, challenge: again, compromised: true, now: h.now)
            #expect(try await h.send(.post, "/v1/sessions", json: AssertionLoginRequest(clientId: "com.example.lax", assertion: lax)).status == .created)
        }
    }

    @Test func singleSignOnWithinAPublisherOnly() async throws {
        try await Harness.run { h in
            try await h.saveApp(AppPolicy(clientId: "com.example.wallet", publisher: "demo"))
            try await h.saveApp(AppPolicy(clientId: "com.other.bank", publisher: "other"))
            let device = try await TestDevice()
            let enrolled = try await h.enroll(device)
            let sibling = try await h.login(device, deviceId: enrolled.deviceId, clientId: "com.example.wallet")
            #expect(sibling.status == .created)
            #expect(try jwtParts(try h.decode(Session.self, sibling).accessToken).payload["aud"] as? String == "com.example.wallet")
            try h.expectProblem(try await h.login(device, deviceId: enrolled.deviceId, clientId: "com.other.bank"), 403, .appNotInPublisher)
            try h.expectProblem(try await h.login(device, deviceId: enrolled.deviceId, clientId: "com.nowhere"), 404, .appNotFound)
        }
    }

    @Test func biometricLoginIsRefusedWhereThePolicyForbidsIt() async throws {
        try await Harness.run { h in
            try await h.saveApp(AppPolicy(clientId: "com.example.pinonly", publisher: "demo", biometricAllowed: false))
            let device = try await TestDevice()
            let enrolled = try await h.enroll(device)
            try h.expectProblem(try await h.login(device, deviceId: enrolled.deviceId, clientId: "com.example.pinonly"), 403, .biometryNotAllowed)
            #expect(try await h.login(device, deviceId: enrolled.deviceId, pin: Harness.pin, clientId: "com.example.pinonly").status == .created)
        }
    }

    @Test func thePINLimitFollowsThePolicy() async throws {
        try await Harness.run { h in
            try await h.saveApp(AppPolicy(clientId: "com.example.strict", publisher: "demo", maxPinAttempts: 2))
            let device = try await TestDevice()
            let enrolled = try await h.enroll(device, clientId: "com.example.strict")
            let first = try await h.login(device, deviceId: enrolled.deviceId, pin: "975310", clientId: "com.example.strict")
            #expect(try h.expectProblem(first, 401, .pinIncorrect).attemptsRemaining == 1)
            try h.expectProblem(try await h.login(device, deviceId: enrolled.deviceId, pin: "975310", clientId: "com.example.strict"), 423, .pinLocked)
        }
    }
}
