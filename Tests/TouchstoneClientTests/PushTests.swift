import Foundation
import Testing
import TouchstoneClient
import TouchstoneProtocol

@testable import TouchstoneDomain
@testable import TouchstoneHTTP
@testable import TouchstoneServer
@testable import TouchstoneStorage

/// Push through the SDK: the app registers its token, and turns a notification's payload into the inbox item it names.
@Suite("Push registration and pushed items")
struct PushTests {
    /// An APNs device token whose first byte needs its leading zero.
    static let deviceToken = Data([0x0a, 0xbc] + (2..<32).map { UInt8($0 * 7) })

    // MARK: Registration

    @Test("an APNs token is registered as lowercase hex, read back without it, and removed")
    func apnsRegistration() async throws {
        try await LiveServer.run { server in
            try await server.configurePush()
            let client = server.client(server.profile())
            let deviceId = try #require(try await server.register(client).deviceId)
            #expect(try await client.pushRegistration() == nil)

            try await client.registerPush(
                .apns(deviceToken: Self.deviceToken, topic: LiveServer.demoApp, environment: .development))
            let stored = try #require(try await server.store.pushRegistration(deviceId: deviceId))
            #expect(stored.token == "0abc" + (2..<32).map { String(format: "%02x", $0 * 7) }.joined())
            #expect(stored.token.count == 64)
            let shown = try #require(try await client.pushRegistration())
            #expect(shown.provider == .apns && shown.topic == LiveServer.demoApp && shown.environment == .development)

            try await client.removePushRegistration()
            #expect(try await client.pushRegistration() == nil)
            #expect(try await server.store.pushRegistration(deviceId: deviceId) == nil)
        }
    }

    @Test("an FCM token replaces the APNs registration")
    func fcmReplacesAPNs() async throws {
        try await LiveServer.run { server in
            try await server.configurePush()
            let client = server.client(server.profile())
            let deviceId = try #require(try await server.register(client).deviceId)
            try await client.registerPush(
                .apns(deviceToken: Self.deviceToken, topic: LiveServer.demoApp, environment: .production))
            try await client.registerPush(.fcm(token: "fcm-token:APA91b_x.y-z"))
            let shown = try #require(try await client.pushRegistration())
            #expect(shown.provider == .fcm && shown.topic == nil && shown.environment == nil)
            #expect(try await server.store.pushRegistration(deviceId: deviceId)?.token == "fcm-token:APA91b_x.y-z")
        }
    }

    @Test("an app without push credentials: push_not_configured, nothing registered")
    func notConfigured() async throws {
        try await LiveServer.run { server in
            let client = server.client(server.profile())
            try await server.register(client)
            await expectError(.server, serverCode: .pushNotConfigured) {
                try await client.registerPush(
                    .apns(deviceToken: Self.deviceToken, topic: LiveServer.demoApp, environment: .production))
            }
            await expectError(.server, serverCode: .pushNotConfigured) {
                try await client.registerPush(.fcm(token: "fcm-token"))
            }
            #expect(try await client.pushRegistration() == nil)
        }
    }

    // MARK: Pushed items

    @Test("APNs' userInfo and FCM's data both give the item they name, as the inbox lists it")
    func pushedRequest() async throws {
        try await LiveServer.run { server in
            let client = server.client(server.profile())
            let deviceId = try #require(try await server.register(client).deviceId)
            try await server.startWebLogin()
            let item = try await nextInboxItem(client, kind: .webLogin)
            let reference = PushReference(kind: .webLogin, id: item.id, deviceId: deviceId)
            #expect(try await client.inboxItem(fromPush: try Self.apnsUserInfo(reference)) == .request(item))
            #expect(try await client.inboxItem(fromPush: Self.fcmData(reference)) == .request(item))
        }
    }

    @Test("a notice's push gives the notice")
    func pushedNotice() async throws {
        try await LiveServer.run { server in
            let first = server.client(server.profile())
            let deviceId = try #require(try await server.register(first).deviceId)
            try await first.stepUp(password: LiveServer.password)
            let code = try await first.createRecoveryCodes()[0]
            try await server.client(server.profile()).register(
                username: "ana", password: LiveServer.password, pin: LiveServer.pin, recoveryCode: code)
            guard case .notice(let notice) = try await first.inbox().first else {
                Issue.record("the first device has no notice")
                return
            }
            let reference = PushReference(kind: .notice, id: notice.id, deviceId: deviceId, event: notice.event)
            #expect(try await first.inboxItem(fromPush: try Self.apnsUserInfo(reference)) == .notice(notice))
        }
    }

    @Test("a push for another device: nil, and nothing is fetched")
    func anotherDevicesPush() async throws {
        try await LiveServer.run { server in
            let other = server.client(server.profile())
            let otherId = try #require(try await server.register(other, username: "ben").deviceId)
            try await server.startWebLogin("ben")
            let item = try await nextInboxItem(other, kind: .webLogin)
            let profile = server.profile()
            try await server.register(server.client(profile))
            let transport = server.recorder()
            let client = server.client(profile, transport: transport)
            let reference = PushReference(kind: .webLogin, id: item.id, deviceId: otherId)
            #expect(try await client.inboxItem(fromPush: try Self.apnsUserInfo(reference)) == nil)
            #expect(try await client.inboxItem(fromPush: Self.fcmData(reference)) == nil)
            #expect(transport.requests.isEmpty)
        }
    }

    @Test("a push naming this device with another device's item: nil (the server has no such item for it)")
    func anotherDevicesItem() async throws {
        try await LiveServer.run { server in
            let other = server.client(server.profile())
            try await server.register(other, username: "ben")
            try await server.startWebLogin("ben")
            let item = try await nextInboxItem(other, kind: .webLogin)
            let client = server.client(server.profile())
            let deviceId = try #require(try await server.register(client).deviceId)
            let reference = PushReference(kind: .webLogin, id: item.id, deviceId: deviceId)
            #expect(try await client.inboxItem(fromPush: try Self.apnsUserInfo(reference)) == nil)
            await expectError(.server, serverCode: .notFound) { try await client.inboxItem(id: item.id) }
        }
    }

    @Test("a push for an item decided meanwhile: nil")
    func decidedItem() async throws {
        try await LiveServer.run { server in
            let client = server.client(server.profile())
            let deviceId = try #require(try await server.register(client).deviceId)
            let started = try await server.startWebLogin()
            let item = try await nextInboxItem(client, kind: .webLogin)
            #expect(try await client.approve(item, pin: LiveServer.pin, number: started.number) == .approved)
            let reference = PushReference(kind: .webLogin, id: item.id, deviceId: deviceId)
            #expect(try await client.inboxItem(fromPush: try Self.apnsUserInfo(reference)) == nil)
        }
    }

    @Test("a notification that is not a Touchstone push: nil, and nothing is sent")
    func notTouchstone() async throws {
        try await LiveServer.run { server in
            let profile = server.profile()
            try await server.register(server.client(profile))
            let transport = server.recorder()
            let client = server.client(profile, transport: transport)
            let userInfo: [AnyHashable: Any] = ["aps": ["alert": ["title": "Sale", "body": "50% off"]], "promo": "x"]
            #expect(try await client.inboxItem(fromPush: userInfo) == nil)
            #expect(transport.requests.isEmpty)
        }
    }

    // MARK: Payloads

    /// `reference` as an iOS app's `userInfo` holds the APNs push PROTOCOL.md describes: its JSON, decoded.
    static func apnsUserInfo(_ reference: PushReference) throws -> [AnyHashable: Any] {
        let event = reference.event.map { #","event":"\#($0.rawValue)""# } ?? ""
        let json = #"""
            {"aps":{"alert":{"title":"Touchstone","body":"Open the app to answer"},"sound":"default","mutable-content":1,\#
            "category":"touchstone.\#(reference.kind.rawValue)"},"touchstone":{"v":1,"kind":"\#(reference.kind.rawValue)",\#
            "id":"\#(reference.id)","deviceId":"\#(reference.deviceId)"\#(event)}}
            """#
        return try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [AnyHashable: Any])
    }

    /// `reference` as the data of an FCM data message.
    static func fcmData(_ reference: PushReference) -> [AnyHashable: Any] {
        ["touchstone_v": "1", "kind": reference.kind.rawValue, "id": reference.id, "deviceId": reference.deviceId]
    }
}
