import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
import TouchstoneProtocol
import TouchstoneTestSupport

@testable import TouchstoneDomain
@testable import TouchstoneHTTP
@testable import TouchstoneServer
@testable import TouchstoneStorage

@Suite struct InboxTests {
    /// The inbox of a device, timed on the real clock (long-polls wait in real time).
    func timedInbox(_ h: Harness, _ device: TestDevice, deviceId: String, waitSeconds: Int) async throws
        -> (status: Int, items: [InboxItem], elapsed: Duration)
    {
        let start = ContinuousClock.now
        let response = try await h.deviceInbox(device, deviceId: deviceId, waitSeconds: waitSeconds)
        let elapsed = ContinuousClock.now - start
        return (Int(response.status.code), try h.decode(Inbox.self, response).items, elapsed)
    }

    @Test func anEmptyInboxAnswersAtOnceWithoutWaitSeconds() async throws {
        try await Harness.run { h in
            let device = try await TestDevice()
            let enrolled = try await h.enroll(device)
            let response = try await h.deviceInbox(device, deviceId: enrolled.deviceId)
            #expect(response.status == .ok)
            #expect(response.headers[.cacheControl] == "no-store")
            #expect(String(buffer: response.body) == #"{"items":[]}"#)
        }
    }

    @Test func theInboxNeedsAFreshRequestTokenOfThatDevice() async throws {
        try await Harness.run { h in
            let device = try await TestDevice()
            let enrolled = try await h.enroll(device)
            let bobDevice = try await TestDevice(name: "Bob's phone")
            let bob = try await h.enroll(bobDevice, username: "bob")
            let path = "/v1/devices/\(enrolled.deviceId)/inbox"
            let get = { (proof: String?) in
                try await h.send(.get, path, headers: proof.map { [.authorization: "TouchstoneDevice \($0)"] } ?? [:])
            }
            try h.expectProblem(try await get(nil), 401, .deviceProofRequired)
            try h.expectProblem(
                try await h.send(.get, path, headers: [.authorization: "Bearer \(enrolled.session.accessToken)"]), 401,
                .deviceProofRequired)
            try h.expectProblem(try await get("garbage"), 401, .invalidDeviceProof)
            // Another device: in its own name, or in this device's name.
            try h.expectProblem(try await get(try await bobDevice.request(deviceId: bob.deviceId, method: "GET", path: path, now: h.now)), 401, .invalidDeviceProof)
            try h.expectProblem(try await get(try await bobDevice.request(deviceId: enrolled.deviceId, method: "GET", path: path, now: h.now)), 401, .invalidDeviceProof)
            // This device, for another request.
            try h.expectProblem(try await get(try await device.request(deviceId: enrolled.deviceId, method: "GET", path: "/v1/devices/\(bob.deviceId)/inbox", now: h.now)), 401, .invalidDeviceProof)
            try h.expectProblem(try await get(try await device.request(deviceId: enrolled.deviceId, method: "GET", path: "/v1/sessions/refresh", now: h.now)), 401, .invalidDeviceProof)
            try h.expectProblem(try await get(try await device.request(deviceId: enrolled.deviceId, method: "POST", path: path, now: h.now)), 401, .invalidDeviceProof)
            // Signed by the biometric key instead of the device key.
            let claims = RequestClaims(
                iss: enrolled.deviceId, aud: Harness.issuer, iat: TestDevice.seconds(h.now), exp: TestDevice.seconds(h.now) + 60,
                jti: UUID().uuidString, htm: "GET", htu: Harness.issuer + path)
            try h.expectProblem(try await get(try await device.biometricKey!.sign(claims)), 401, .invalidDeviceProof)
            // Bob's own inbox cannot be read with Ana's device either.
            try h.expectProblem(
                try await h.send(
                    .get, "/v1/devices/\(bob.deviceId)/inbox",
                    headers: [.authorization: "TouchstoneDevice \(try await device.request(deviceId: enrolled.deviceId, method: "GET", path: "/v1/devices/\(bob.deviceId)/inbox", now: h.now))"]),
                401, .invalidDeviceProof)

            // The right token works once.
            let proof = try await device.request(deviceId: enrolled.deviceId, method: "GET", path: path, now: h.now)
            #expect(try await get(proof).status == .ok)
            try h.expectProblem(try await get(proof), 401, .invalidDeviceProof)
            // A revoked device has no inbox.
            _ = try await h.store.revokeDevice(id: enrolled.deviceId, reason: "test", at: h.now, notices: [])
            try h.expectProblem(try await h.deviceInbox(device, deviceId: enrolled.deviceId), 401, .invalidDeviceProof)
        }
    }

    @Test func waitSecondsIsAtMostThirty() async throws {
        try await Harness.run { h in
            let device = try await TestDevice()
            let enrolled = try await h.enroll(device)
            for wait in ["31", "-1", "x", "1.5", "1000000000000000000000"] {
                let path = "/v1/devices/\(enrolled.deviceId)/inbox"
                let proof = try await device.request(deviceId: enrolled.deviceId, method: "GET", path: path, now: h.now)
                try h.expectProblem(
                    try await h.send(.get, path + "?waitSeconds=\(wait)", headers: [.authorization: "TouchstoneDevice \(proof)"]),
                    400, .invalidRequest)
            }
            #expect(try await h.deviceInbox(device, deviceId: enrolled.deviceId, waitSeconds: 0).status == .ok)
        }
    }

    @Test func anEmptyInboxAnswersAfterWaitSeconds() async throws {
        try await Harness.run { h in
            let device = try await TestDevice()
            let enrolled = try await h.enroll(device)
            let waited = try await timedInbox(h, device, deviceId: enrolled.deviceId, waitSeconds: 1)
            #expect(waited.status == 200)
            #expect(waited.items.isEmpty)
            #expect(waited.elapsed >= .milliseconds(900))
            #expect(waited.elapsed < .seconds(15))
        }
    }

    @Test func aWaitingLongPollIsAnsweredWhenAnItemArrives() async throws {
        try await Harness.run { h in
            let device = try await TestDevice()
            let enrolled = try await h.enroll(device)
            let key = try await h.newAPIKey(for: "com.example.demo")
            // Timed against the test's start so that a slow machine (bcrypt of parallel tests shares the thread pool
            // with SQLite) cannot turn a late answer into an early one.
            let start = ContinuousClock.now
            async let waiting = timedInbox(h, device, deviceId: enrolled.deviceId, waitSeconds: 15)
            try await Task.sleep(for: .milliseconds(500))
            let created = try await h.send(
                .post, "/v1/confirmations",
                json: ConfirmationRequest(username: "ana", text: "Pay ACME", amount: "120.00", currency: "EUR", payee: "ACME Ltd"),
                headers: [.authorization: "ApiKey \(key)"])
            let createdAfter = ContinuousClock.now - start
            #expect(created.status == .created)
            let id = try h.decode(ConfirmationCreated.self, created).confirmationId
            let answered = try await waiting
            let answeredAfter = ContinuousClock.now - start
            #expect(answered.status == 200)
            #expect(answered.items.map(\.id) == [id])
            #expect(answered.items.first?.kind == .confirmation)
            // It waited for the item, and answered soon after it arrived, before its 15 s were up.
            #expect(answered.elapsed >= .milliseconds(400))
            #expect(answeredAfter - createdAfter < .seconds(5))
            #expect(answered.elapsed < .seconds(14))
        }
    }
}
