import Crypto
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

/// A device's push registration (`PUT|GET|DELETE /v1/devices/{deviceId}/push`), behind its own request token.
@Suite struct PushRegistrationTests {
    static let apnsToken = String(repeating: "0a1b2c3d", count: 8)
    static let topic = "com.example.demo"

    /// APNs credentials for `topics` (the key is never used here: no item is pushed).
    static func apns(topics: [String] = [topic]) -> APNsCredentials {
        APNsCredentials(
            keyPEM: P256.Signing.PrivateKey().pemRepresentation, keyId: "ABCDE12345", teamId: "TEAM123456",
            topics: topics)
    }

    static let fcm = FCMServiceAccount(
        projectId: "demo-project", clientEmail: "push@demo-project.iam.gserviceaccount.com", privateKeyId: "key-1",
        privateKeyPEM: "unused here", tokenURI: "https://oauth2.googleapis.com/token")

    static func apnsRegistration(token: String = apnsToken, topic: String = topic) -> PushRegistrationRequest {
        PushRegistrationRequest(provider: .apns, token: token, topic: topic, environment: .production)
    }

    /// Sets the demo app's credentials straight in the store (as `admin app push` does).
    func configure(
        _ h: Harness, apns: PushCredentialChange<APNsCredentials>, fcm: PushCredentialChange<FCMServiceAccount>
    ) async throws {
        #expect(try await h.store.updatePushCredentials(clientId: "com.example.demo", apns: apns, fcm: fcm, at: h.now))
    }

    @Test func aMalformedRegistrationIsAnInvalidRequestAndStoresNothing() async throws {
        try await Harness.run { h in
            try await configure(h, apns: .set(Self.apns()), fcm: .set(Self.fcm))
            let device = try await TestDevice()
            let enrolled = try await h.enroll(device)
            let malformed: [String] = [
                #"{"provider":"apns","token":"\#(String(repeating: "a", count: 63))","topic":"com.example.demo","environment":"production"}"#,
                #"{"provider":"apns","token":"\#(String(repeating: "a", count: 201))","topic":"com.example.demo","environment":"production"}"#,
                #"{"provider":"apns","token":"\#(String(repeating: "g", count: 64))","topic":"com.example.demo","environment":"production"}"#,
                #"{"provider":"apns","token":"\#(String(repeating: "a", count: 63)) ","topic":"com.example.demo","environment":"production"}"#,
                #"{"provider":"apns","token":"\#(Self.apnsToken)","environment":"production"}"#,
                #"{"provider":"apns","token":"\#(Self.apnsToken)","topic":"com.example.demo"}"#,
                #"{"provider":"apns","token":"\#(Self.apnsToken)","topic":"com.example.demo","environment":"staging"}"#,
                #"{"provider":"apns","topic":"com.example.demo","environment":"production"}"#,
                #"{"provider":"apns","token":64,"topic":"com.example.demo","environment":"production"}"#,
                #"{"provider":"gcm","token":"abc"}"#,
                #"{"token":"abc"}"#,
                #"{"provider":"fcm","token":""}"#,
                #"{"provider":"fcm","token":"\#(String(repeating: "a", count: 4097))"}"#,
                #"{"provider":"fcm","token":"abc def"}"#,
                #"{"provider":"fcm","token":"abc/def"}"#,
                #"{"provider":"fcm","token":"abcdé"}"#,
                #"{"provider":"fcm","token":"abc","topic":"com.example.demo"}"#,
                #"{"provider":"fcm","token":"abc","environment":"production"}"#,
                #"{"provider":"fcm","token":"abc""#,
                #"[]"#,
                "",
            ]
            for body in malformed {
                try h.expectProblem(
                    try await h.deviceRequest(.registerPush, raw: body, by: device, deviceId: enrolled.deviceId), 400,
                    .invalidRequest)
            }
            #expect(try await h.store.pushRegistration(deviceId: enrolled.deviceId) == nil)
            // The bounds themselves are fine.
            for request in [
                Self.apnsRegistration(token: String(repeating: "A", count: 64)),
                Self.apnsRegistration(token: String(repeating: "f", count: 200)),
                PushRegistrationRequest(provider: .fcm, token: String(repeating: "x", count: 4096)),
                PushRegistrationRequest(provider: .fcm, token: "a_b:c.d-E9"),
            ] {
                let response = try await h.deviceRequest(.registerPush, json: request, by: device, deviceId: enrolled.deviceId)
                #expect(response.status == .noContent, "\(request)")
            }
        }
    }

    @Test func aProviderOrTopicTheAppHasNoCredentialsForIsPushNotConfigured() async throws {
        try await Harness.run { h in
            let device = try await TestDevice()
            let enrolled = try await h.enroll(device)
            let fcm = PushRegistrationRequest(provider: .fcm, token: "fcm-token")
            // No credentials at all.
            for request in [Self.apnsRegistration(), fcm] {
                try h.expectProblem(
                    try await h.deviceRequest(.registerPush, json: request, by: device, deviceId: enrolled.deviceId), 400,
                    .pushNotConfigured)
            }
            // APNs for another topic only: neither this topic nor FCM.
            try await configure(h, apns: .set(Self.apns(topics: ["com.example.other"])), fcm: .keep)
            for request in [Self.apnsRegistration(), fcm] {
                try h.expectProblem(
                    try await h.deviceRequest(.registerPush, json: request, by: device, deviceId: enrolled.deviceId), 400,
                    .pushNotConfigured)
            }
            // Credentials of another app do not count.
            try await h.saveApp(AppPolicy(clientId: "com.example.pay", publisher: "demo"))
            #expect(
                try await h.store.updatePushCredentials(
                    clientId: "com.example.pay", apns: .set(Self.apns()), fcm: .set(Self.fcm), at: h.now))
            for request in [Self.apnsRegistration(), fcm] {
                try h.expectProblem(
                    try await h.deviceRequest(.registerPush, json: request, by: device, deviceId: enrolled.deviceId), 400,
                    .pushNotConfigured)
            }
            #expect(try await h.store.pushRegistration(deviceId: enrolled.deviceId) == nil)

            try await configure(h, apns: .set(Self.apns(topics: ["com.example.other", Self.topic])), fcm: .keep)
            let response = try await h.deviceRequest(
                .registerPush, json: Self.apnsRegistration(), by: device, deviceId: enrolled.deviceId)
            #expect(response.status == .noContent)
        }
    }

    @Test func aRegistrationReplacesTheEarlierOneAndShowsNoToken() async throws {
        try await Harness.run { h in
            try await configure(h, apns: .set(Self.apns()), fcm: .set(Self.fcm))
            let device = try await TestDevice()
            let enrolled = try await h.enroll(device)
            try h.expectProblem(try await h.deviceRequest(.pushRegistration, by: device, deviceId: enrolled.deviceId), 404, .notFound)

            let upper = Self.apnsToken.uppercased()
            #expect(
                try await h.deviceRequest(
                    .registerPush, json: Self.apnsRegistration(token: upper), by: device, deviceId: enrolled.deviceId
                ).status == .noContent)
            let shown = try await h.deviceRequest(.pushRegistration, by: device, deviceId: enrolled.deviceId)
            #expect(shown.status == .ok)
            #expect(shown.headers[.cacheControl] == "no-store")
            #expect(Set(try h.jsonObject(shown).keys) == ["provider", "topic", "environment", "registeredAt"])
            #expect(!String(buffer: shown.body).lowercased().contains(Self.apnsToken))
            let summary = try h.decode(PushRegistrationSummary.self, shown)
            #expect(summary.provider == .apns && summary.topic == Self.topic && summary.environment == .production)
            #expect(abs(summary.registeredAt.timeIntervalSince(h.now)) < 1)
            // Stored in lowercase: one token is one token, however it is spelt.
            #expect(try await h.store.pushRegistration(deviceId: enrolled.deviceId)?.token == Self.apnsToken)

            h.clock.advance(by: 60)
            #expect(
                try await h.deviceRequest(
                    .registerPush, json: PushRegistrationRequest(provider: .fcm, token: "fcm:token"), by: device,
                    deviceId: enrolled.deviceId
                ).status == .noContent)
            let replaced = try await h.deviceRequest(.pushRegistration, by: device, deviceId: enrolled.deviceId)
            #expect(Set(try h.jsonObject(replaced).keys) == ["provider", "registeredAt"])
            #expect(try h.decode(PushRegistrationSummary.self, replaced).provider == .fcm)
            let stored = try #require(try await h.store.pushRegistration(deviceId: enrolled.deviceId))
            #expect(stored.token == "fcm:token" && stored.topic == nil && stored.environment == nil)
        }
    }

    @Test func aTokenRegisteredByAnotherDeviceMovesToIt() async throws {
        try await Harness.run { h in
            try await configure(h, apns: .set(Self.apns()), fcm: .keep)
            let phone = try await TestDevice()
            let phoneId = try await h.enroll(phone).deviceId
            let bobPhone = try await TestDevice(name: "Bob's phone")
            let bobId = try await h.enroll(bobPhone, username: "bob").deviceId
            #expect(try await h.deviceRequest(.registerPush, json: Self.apnsRegistration(), by: phone, deviceId: phoneId).status == .noContent)
            #expect(
                try await h.deviceRequest(
                    .registerPush, json: Self.apnsRegistration(token: Self.apnsToken.uppercased()), by: bobPhone,
                    deviceId: bobId
                ).status == .noContent)
            try h.expectProblem(try await h.deviceRequest(.pushRegistration, by: phone, deviceId: phoneId), 404, .notFound)
            #expect(try await h.store.pushRegistration(deviceId: phoneId) == nil)
            #expect(try await h.store.pushRegistration(deviceId: bobId)?.token == Self.apnsToken)
        }
    }

    @Test func deleteRemovesTheRegistration() async throws {
        try await Harness.run { h in
            try await configure(h, apns: .keep, fcm: .set(Self.fcm))
            let device = try await TestDevice()
            let enrolled = try await h.enroll(device)
            #expect(
                try await h.deviceRequest(
                    .registerPush, json: PushRegistrationRequest(provider: .fcm, token: "t"), by: device,
                    deviceId: enrolled.deviceId
                ).status == .noContent)
            #expect(try await h.deviceRequest(.removePushRegistration, by: device, deviceId: enrolled.deviceId).status == .noContent)
            try h.expectProblem(try await h.deviceRequest(.pushRegistration, by: device, deviceId: enrolled.deviceId), 404, .notFound)
            #expect(try await h.store.pushRegistration(deviceId: enrolled.deviceId) == nil)
            // None registered: still 204.
            #expect(try await h.deviceRequest(.removePushRegistration, by: device, deviceId: enrolled.deviceId).status == .noContent)
        }
    }

    @Test func anotherDevicesTokenIsRefusedAndChangesNothing() async throws {
        try await Harness.run { h in
            try await configure(h, apns: .set(Self.apns()), fcm: .set(Self.fcm))
            let phone = try await TestDevice()
            let phoneId = try await h.enroll(phone).deviceId
            let bobPhone = try await TestDevice(name: "Bob's phone")
            let bobId = try await h.enroll(bobPhone, username: "bob").deviceId
            #expect(try await h.deviceRequest(.registerPush, json: Self.apnsRegistration(), by: phone, deviceId: phoneId).status == .noContent)
            let before = try await h.store.pushRegistration(deviceId: phoneId)

            // Bob's device, in Ana's phone's name, for each method.
            let fcm = PushRegistrationRequest(provider: .fcm, token: "bob-token")
            try h.expectProblem(try await h.deviceRequest(.registerPush, json: fcm, by: bobPhone, deviceId: phoneId), 401, .invalidDeviceProof)
            try h.expectProblem(try await h.deviceRequest(.pushRegistration, by: bobPhone, deviceId: phoneId), 401, .invalidDeviceProof)
            try h.expectProblem(try await h.deviceRequest(.removePushRegistration, by: bobPhone, deviceId: phoneId), 401, .invalidDeviceProof)
            // Without a request token.
            try h.expectProblem(try await h.send(.delete, Endpoint.removePushRegistration.path(phoneId)), 401, .deviceProofRequired)
            // Ana's phone's token of another request (Bob's push).
            let proof = try await phone.request(
                deviceId: phoneId, method: "DELETE", path: Endpoint.removePushRegistration.path(bobId), now: h.now)
            try h.expectProblem(
                try await h.send(
                    .delete, Endpoint.removePushRegistration.path(phoneId),
                    headers: [.authorization: "TouchstoneDevice \(proof)"]), 401, .invalidDeviceProof)

            #expect(try await h.store.pushRegistration(deviceId: phoneId) == before)
            #expect(try await h.store.pushRegistration(deviceId: bobId) == nil)
        }
    }
}
