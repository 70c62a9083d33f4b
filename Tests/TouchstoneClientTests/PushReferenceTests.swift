import Foundation
import Testing
import TouchstoneProtocol

/// What an app's notification payload names: APNs' `userInfo` (a `touchstone` dictionary, `v` a number) or FCM's data
/// message (strings), read by ``PushReference/init(payload:)``; anything else is not a Touchstone push.
@Suite("Push payloads")
struct PushReferenceTests {
    static let expected = PushReference(kind: .webLogin, id: "w-1", deviceId: "d-1")

    @Test("APNs' userInfo as the app receives it: decoded from the push's JSON, v a Foundation number")
    func apnsFromJSON() throws {
        let json = #"""
            {"aps":{"alert":{"title":"Sign-in request","body":"Open the app to answer"},"sound":"default",
            "mutable-content":1,"category":"touchstone.web-login"},
            "touchstone":{"v":1,"kind":"web-login","id":"w-1","deviceId":"d-1"}}
            """#
        let userInfo = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [AnyHashable: Any])
        #expect(PushReference(payload: userInfo) == Self.expected)
    }

    @Test("v as a Swift Int or an NSNumber; a notice's event is read")
    func apnsNumbers() {
        for version: Any in [1, NSNumber(value: 1)] {
            let payload: [AnyHashable: Any] = [
                "touchstone": ["v": version, "kind": "notice", "id": "n-1", "deviceId": "d-1", "event": "pin_changed"]
            ]
            #expect(
                PushReference(payload: payload)
                    == PushReference(kind: .notice, id: "n-1", deviceId: "d-1", event: .pinChanged))
        }
    }

    @Test("FCM's data message: every value a string")
    func fcm() {
        let data: [AnyHashable: Any] = ["touchstone_v": "1", "kind": "web-login", "id": "w-1", "deviceId": "d-1"]
        #expect(PushReference(payload: data) == Self.expected)
    }

    @Test(
        "not a Touchstone push of version 1: nil",
        arguments: [
            #"{"aps":{"alert":"Your parcel is on its way"}}"#,
            #"{"touchstone":{"v":2,"kind":"web-login","id":"w-1","deviceId":"d-1"}}"#,
            #"{"touchstone":{"v":"1","kind":"web-login","id":"w-1","deviceId":"d-1"}}"#,
            #"{"touchstone":{"v":1.5,"kind":"web-login","id":"w-1","deviceId":"d-1"}}"#,
            #"{"touchstone":{"v":true,"kind":"web-login","id":"w-1","deviceId":"d-1"}}"#,
            #"{"touchstone":{"kind":"web-login","id":"w-1","deviceId":"d-1"}}"#,
            #"{"touchstone":{"v":1,"kind":"web-login","deviceId":"d-1"}}"#,
            #"{"touchstone":{"v":1,"kind":"web-login","id":"","deviceId":"d-1"}}"#,
            #"{"touchstone":{"v":1,"kind":5,"id":"w-1","deviceId":"d-1"}}"#,
            #"{"touchstone":{"v":1,"kind":"web-login","id":"w-1"}}"#,
            #"{"touchstone":"v1 web-login w-1 d-1"}"#,
            #"{"touchstone_v":"2","kind":"web-login","id":"w-1","deviceId":"d-1"}"#,
            #"{"touchstone_v":1,"kind":"web-login","id":"w-1","deviceId":"d-1"}"#,
            #"{"kind":"web-login","id":"w-1","deviceId":"d-1"}"#,
        ])
    func notOurs(json: String) throws {
        let payload = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [AnyHashable: Any])
        #expect(PushReference(payload: payload) == nil)
    }
}
