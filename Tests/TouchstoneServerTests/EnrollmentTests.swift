import Foundation
import HTTPTypes
import Testing
import TouchstoneProtocol
import TouchstoneTestSupport

@testable import TouchstoneDomain
@testable import TouchstoneHTTP
@testable import TouchstoneServer
@testable import TouchstoneStorage

@Suite struct EnrollmentTests {
    @Test(arguments: TestDevice.Algorithm.allCases)
    func enrolsWithEachKeyType(_ algorithm: TestDevice.Algorithm) async throws {
        try await Harness.run(configure: Harness.productionBcrypt) { h in
            let device = try await TestDevice(algorithm: algorithm)
            try await h.createAccount()
            let started = try await h.startEnrollment()
            #expect(started.expiresAt.timeIntervalSince(h.now) <= 60)
            #expect(Base64URL.decode(started.challenge)?.count == 32)
            let response = try await h.completeEnrollment(device, started)
            #expect(response.status == .created)
            #expect(response.headers[.cacheControl] == "no-store")
            let completed = try h.decode(EnrollmentCompleted.self, response)
            #expect(completed.session.deviceId == completed.deviceId)
            #expect(completed.session.acr == "aal2")
            let stored = try #require(try await h.store.device(id: completed.deviceId))
            #expect(stored.fingerprint == device.fingerprint)
            #expect(stored.deviceKeyThumbprint == device.deviceKey.publicKey.thumbprint)
            #expect(stored.biometricKeyThumbprint == device.biometricKey?.publicKey.thumbprint)
            #expect(stored.pinHash?.hasPrefix(PasswordHasher.prehashedPrefix + "$2b$12$") == true)
        }
    }

    @Test func startNeedsTheRightPassword() async throws {
        try await Harness.run { h in
            try await h.createAccount()
            let wrong = try await h.send(
                .post, "/v1/enrollments",
                json: PasswordLoginRequest(clientId: "com.example.demo", username: "ana", password: "not the password"))
            let unknown = try await h.send(
                .post, "/v1/enrollments",
                json: PasswordLoginRequest(clientId: "com.example.demo", username: "bob", password: "not the password"))
            try h.expectProblem(wrong, 401, .invalidCredentials)
            try h.expectProblem(unknown, 401, .invalidCredentials)
            #expect(wrong.body == unknown.body)
            let noApp = try await h.send(
                .post, "/v1/enrollments",
                json: PasswordLoginRequest(clientId: "com.nowhere", username: "ana", password: Harness.password))
            try h.expectProblem(noApp, 404, .appNotFound)
        }
    }

    @Test func enrolmentChallengeIsSingleUse() async throws {
        try await Harness.run { h in
            try await h.createAccount()
            let started = try await h.startEnrollment()
            let device = try await TestDevice()
            #expect(try await h.completeEnrollment(device, started).status == .created)
            // Same body again (a replay), and fresh proofs for the same enrolment.
            try h.expectProblem(try await h.completeEnrollment(device, started), 401, .challengeInvalid)
            try h.expectProblem(try await h.completeEnrollment(try await TestDevice(), started), 401, .challengeInvalid)
            let unknown = EnrollmentStarted(enrollmentId: "nope", challenge: started.challenge, expiresAt: h.now)
            try h.expectProblem(try await h.completeEnrollment(device, unknown), 401, .challengeInvalid)
        }
    }

    @Test func enrolmentChallengeExpiresAfter60Seconds() async throws {
        try await Harness.run { h in
            try await h.createAccount()
            let started = try await h.startEnrollment()
            h.clock.advance(by: 61)
            try h.expectProblem(try await h.completeEnrollment(try await TestDevice(), started), 401, .challengeInvalid)
        }
    }

    @Test func proofsMustBeSignedByEachNewKeyOverTheChallenge() async throws {
        try await Harness.run { h in
            try await h.createAccount()
            let started = try await h.startEnrollment()
            let device = try await TestDevice()
            let other = try await TestDevice()
            var body = try await device.completion(enrollmentId: started.enrollmentId, challenge: started.challenge, pin: Harness.pin, now: h.now)
            let path = "/v1/enrollments/\(started.enrollmentId)/complete"

            var forged = body
            forged.deviceProof = try await other.completion(enrollmentId: started.enrollmentId, challenge: started.challenge, pin: nil, now: h.now).deviceProof
            try h.expectProblem(try await h.send(.post, path, json: forged), 401, .invalidProof)

            var wrongNonce = body
            wrongNonce.biometricProof = try await device.completion(enrollmentId: started.enrollmentId, challenge: "b3RoZXI", pin: nil, now: h.now).biometricProof
            try h.expectProblem(try await h.send(.post, path, json: wrongNonce), 401, .invalidProof)

            var wrongEnrollment = body
            wrongEnrollment.deviceProof = try await device.completion(enrollmentId: "another", challenge: started.challenge, pin: nil, now: h.now).deviceProof
            try h.expectProblem(try await h.send(.post, path, json: wrongEnrollment), 401, .invalidProof)

            var missing = body
            missing.biometricProof = nil
            try h.expectProblem(try await h.send(.post, path, json: missing), 401, .invalidProof)

            var garbage = body
            garbage.deviceProof = "not.a.jws"
            try h.expectProblem(try await h.send(.post, path, json: garbage), 401, .invalidProof)

            // None of the refusals consumed the challenge.
            body.pin = Harness.pin
            #expect(try await h.send(.post, path, json: body).status == .created)
        }
    }

    @Test func keysAreCheckedAndMustDiffer() async throws {
        try await Harness.run { h in
            try await h.createAccount()
            let started = try await h.startEnrollment()
            let device = try await TestDevice()
            let path = "/v1/enrollments/\(started.enrollmentId)/complete"
            let body = try await device.completion(enrollmentId: started.enrollmentId, challenge: started.challenge, pin: Harness.pin, now: h.now)

            var same = body
            same.biometricKey = body.deviceKey
            same.biometricProof = body.deviceProof
            try h.expectProblem(try await h.send(.post, path, json: same), 400, .invalidKey)

            var hmac = body
            hmac.deviceKey = PublicJWK(kty: "oct")
            try h.expectProblem(try await h.send(.post, path, json: hmac), 400, .invalidKey)

            var curve = body
            curve.deviceKey.crv = "P-384"
            try h.expectProblem(try await h.send(.post, path, json: curve), 400, .invalidKey)

            var offCurve = body
            offCurve.deviceKey.y = offCurve.deviceKey.x
            try h.expectProblem(try await h.send(.post, path, json: offCurve), 400, .invalidKey)

            var privateKey = body
            privateKey.deviceKey.d = privateKey.deviceKey.x
            try h.expectProblem(try await h.send(.post, path, json: privateKey), 400, .invalidKey)

            var smallRSA = body
            smallRSA.deviceKey = PublicJWK(kty: "RSA", n: Base64URL.encode([0xC1] + [UInt8](repeating: 7, count: 127)), e: "AQAB")
            try h.expectProblem(try await h.send(.post, path, json: smallRSA), 400, .invalidKey)

            #expect(try await h.send(.post, path, json: body).status == .created)
        }
    }

    @Test(arguments: ["111111", "123456", "654321", "12345", "123456789", "12a456", "٣٤٥٦٧٨"])
    func trivialAndMalformedPINsAreRefused(_ pin: String) async throws {
        try await Harness.run { h in
            try await h.createAccount()
            let started = try await h.startEnrollment()
            let response = try await h.completeEnrollment(try await TestDevice(), started, pin: pin)
            try h.expectProblem(response, 400, .invalidPIN)
            #expect(try await h.store.allDevices().isEmpty)
        }
    }

    @Test func aPINIsRequiredByDefaultAndWithoutABiometricKey() async throws {
        try await Harness.run { h in
            try await h.createAccount()
            let started = try await h.startEnrollment()
            try h.expectProblem(try await h.completeEnrollment(try await TestDevice(), started, pin: nil), 400, .pinRequired)

            try await h.saveApp(AppPolicy(clientId: "com.example.nopin", publisher: "demo", pinRequired: false))
            let noPIN = try await h.startEnrollment(clientId: "com.example.nopin")
            try h.expectProblem(try await h.completeEnrollment(try await TestDevice(biometric: false), noPIN, pin: nil), 400, .pinRequired)
            #expect(try await h.completeEnrollment(try await TestDevice(), noPIN, pin: nil).status == .created)
        }
    }

    @Test func compromisedDevicesAreRefusedWhenThePolicySaysSo() async throws {
        try await Harness.run { h in
            try await h.createAccount()
            let started = try await h.startEnrollment()
            let compromised = try await TestDevice(compromised: true)
            try h.expectProblem(try await h.completeEnrollment(compromised, started), 403, .deviceCompromised)
            #expect(try await h.store.allDevices().isEmpty)

            try await h.saveApp(AppPolicy(clientId: "com.example.lax", publisher: "demo", refuseCompromisedDevices: false))
            let lax = try await h.startEnrollment(clientId: "com.example.lax")
            #expect(try await h.completeEnrollment(compromised, lax).status == .created)
        }
    }

    @Test func biometricKeysAreRefusedWhenThePolicyForbidsThem() async throws {
        try await Harness.run { h in
            try await h.saveApp(AppPolicy(clientId: "com.example.pin", publisher: "demo", biometricAllowed: false))
            try await h.createAccount()
            let started = try await h.startEnrollment(clientId: "com.example.pin")
            try h.expectProblem(try await h.completeEnrollment(try await TestDevice(), started), 403, .biometryNotAllowed)
            #expect(try await h.completeEnrollment(try await TestDevice(biometric: false), started).status == .created)
        }
    }

    @Test func aSecondDeviceWaitsForApprovalAndExpires() async throws {
        try await Harness.run { h in
            let first = try await h.enroll(try await TestDevice())
            let started = try await h.startEnrollment()
            let response = try await h.completeEnrollment(try await TestDevice(name: "Ana's tablet"), started)
            #expect(response.status == .accepted)
            #expect(response.headers[.cacheControl] == "no-store")
            let pending = try h.decode(EnrollmentPending.self, response)
            #expect(pending.status == .approvalPending)
            #expect(abs(pending.expiresAt.timeIntervalSince(h.now) - 600) < 1)
            #expect(try await h.store.devices(userId: first.session.userId).count == 1)

            let path = "/v1/enrollments/\(pending.enrollmentId)"
            let poll = try await h.send(.get, path, headers: [.pollSecret: pending.pollSecret])
            #expect(try h.decode(EnrollmentPoll.self, poll).status == .pending)
            try h.expectProblem(try await h.send(.get, path, headers: [.pollSecret: "wrong"]), 404, .notFound)
            try h.expectProblem(try await h.send(.get, path), 404, .notFound)
            try h.expectProblem(try await h.send(.get, "/v1/enrollments/unknown", headers: [.pollSecret: pending.pollSecret]), 404, .notFound)

            h.clock.advance(by: 601)
            let expired = try await h.send(.get, path, headers: [.pollSecret: pending.pollSecret])
            #expect(try h.decode(EnrollmentPoll.self, expired).status == .expired)
        }
    }

    @Test func theSameDeviceEnrollingAgainWithItsOldKeysProofReplacesItself() async throws {
        try await Harness.run { h in
            let device = try await TestDevice()
            let first = try await h.enroll(device)
            // New keys (the old PIN is locked, say), the same description, and a proof from the old device key.
            var again = try await TestDevice()
            again.description = device.description
            let response = try await h.completeEnrollment(again, try await h.startEnrollment(), replacing: device)
            #expect(response.status == .created)
            let second = try h.decode(EnrollmentCompleted.self, response)
            #expect(first.deviceId != second.deviceId)
            #expect(try await h.store.device(id: first.deviceId)?.revokedAt != nil)
            #expect(try await h.store.device(id: second.deviceId)?.revokedAt == nil)
            // The replaced device's session ended with it.
            try h.expectProblem(try await h.send(.get, "/v1/devices", headers: h.bearer(first.session)), 401, .unauthorized)
        }
    }

    @Test func aPreviousDeviceProofThatDoesNotVerifyIsRefusedAndChangesNothing() async throws {
        try await Harness.run { h in
            let device = try await TestDevice()
            let first = try await h.enroll(device)
            var again = try await TestDevice()
            again.description = device.description
            // Signed by a key that is not the enrolled device's.
            let response = try await h.completeEnrollment(again, try await h.startEnrollment(), replacing: try await TestDevice())
            try h.expectProblem(response, 401, .invalidProof)
            #expect(try await h.store.devices(userId: first.session.userId).map(\.id) == [first.deviceId])
            // A proof with no active device of that description to replace proves nothing: a new device, approved or not.
            var stranger = try await TestDevice()
            stranger.description.name = "Another phone"
            #expect(try await h.completeEnrollment(stranger, try await h.startEnrollment(), replacing: device).status == .accepted)
            #expect(try await h.store.device(id: first.deviceId)?.isActive == true)
            #expect(try await h.login(device, deviceId: first.deviceId).status == .created)
        }
    }

    @Test func appsWithoutApprovalEnrolFurtherDevicesDirectly() async throws {
        try await Harness.run { h in
            try await h.saveApp(AppPolicy(clientId: "com.example.open", publisher: "demo", newDeviceApproval: false))
            let phone = try await TestDevice()
            let first = try await h.enroll(phone, clientId: "com.example.open")
            let started = try await h.startEnrollment(clientId: "com.example.open")
            #expect(try await h.completeEnrollment(try await TestDevice(name: "tablet"), started).status == .created)
            // The same description without a proof is one more device, not a replacement.
            var twin = try await TestDevice()
            twin.description = phone.description
            let twinStarted = try await h.startEnrollment(clientId: "com.example.open")
            #expect(try await h.completeEnrollment(twin, twinStarted).status == .created)
            #expect(try await h.store.device(id: first.deviceId)?.isActive == true)
        }
    }
}
