import Foundation
import HTTPTypes
import Testing
import TouchstoneProtocol
import TouchstoneTestSupport

@testable import TouchstoneDomain
@testable import TouchstoneHTTP
@testable import TouchstoneServer
@testable import TouchstoneStorage

@Suite struct DeviceTests {
    @Test func listsTheCallersActiveDevices() async throws {
        try await Harness.run { h in
            try await h.saveApp(AppPolicy(clientId: "com.example.open", publisher: "demo", newDeviceApproval: false))
            let phone = try await h.enroll(try await TestDevice(), clientId: "com.example.open")
            h.clock.advance(by: 1)
            let tablet = try await h.enroll(try await TestDevice(biometric: false, name: "tablet"), clientId: "com.example.open", createAccount: false)
            _ = try await h.enroll(try await TestDevice(name: "bob's"), username: "bob")
            let response = try await h.send(.get, "/v1/devices", headers: h.bearer(phone.session))
            #expect(response.status == .ok)
            let devices = try h.decode(DeviceList.self, response).devices
            #expect(devices.map(\.deviceId) == [phone.deviceId, tablet.deviceId])
            #expect(devices.map(\.current) == [true, false])
            #expect(devices.map(\.biometric) == [true, false])
            #expect(devices[0].name == "Ana's phone")
            try h.expectProblem(try await h.send(.get, "/v1/devices"), 401, .unauthorized)
        }
    }

    @Test func deletingTheCurrentDeviceNeedsOnlyTheSession() async throws {
        try await Harness.run { h in
            let device = try await TestDevice()
            let enrolled = try await h.enroll(device)
            #expect(try await h.send(.delete, "/v1/devices/\(enrolled.deviceId)", headers: h.bearer(enrolled.session)).status == .noContent)
            #expect(try await h.store.device(id: enrolled.deviceId)?.revokedAt != nil)
            try h.expectProblem(try await h.send(.get, "/v1/devices", headers: h.bearer(enrolled.session)), 401, .unauthorized)
            try h.expectProblem(try await h.send(.post, "/v1/challenges", json: ChallengeRequest(deviceId: enrolled.deviceId)), 403, .deviceRevoked)
        }
    }

    @Test func otherDevicesNeedStepUpAndStrangersDevicesDoNotExist() async throws {
        try await Harness.run { h in
            try await h.saveApp(AppPolicy(clientId: "com.example.open", publisher: "demo", newDeviceApproval: false))
            let phone = try await h.enroll(try await TestDevice(), clientId: "com.example.open")
            let tablet = try await h.enroll(try await TestDevice(name: "tablet"), clientId: "com.example.open", createAccount: false)
            let bob = try await h.enroll(try await TestDevice(name: "bob's"), username: "bob")
            for path in ["/v1/devices/\(tablet.deviceId)", "/v1/devices/\(tablet.deviceId)/biometric-key"] {
                try h.expectProblem(try await h.send(.delete, path, headers: h.bearer(phone.session)), 403, .stepUpRequired)
            }
            for path in ["/v1/devices/\(bob.deviceId)", "/v1/devices/\(bob.deviceId)/biometric-key", "/v1/devices/unknown"] {
                try h.expectProblem(try await h.send(.delete, path, headers: h.bearer(phone.session)), 404, .deviceNotFound)
            }
            #expect(try await h.store.device(id: tablet.deviceId)?.biometricKey != nil)
            #expect(try await h.store.device(id: bob.deviceId)?.revokedAt == nil)
        }
    }

    @Test func optOutRevokesTheBiometricKeyOnly() async throws {
        try await Harness.run { h in
            let device = try await TestDevice()
            let enrolled = try await h.enroll(device)
            #expect(try await h.send(.delete, "/v1/devices/\(enrolled.deviceId)/biometric-key", headers: h.bearer(enrolled.session)).status == .noContent)
            try h.expectProblem(try await h.login(device, deviceId: enrolled.deviceId), 401, .invalidAssertion)
            #expect(try await h.login(device, deviceId: enrolled.deviceId, pin: Harness.pin).status == .created)
            let listed = try h.decode(DeviceList.self, try await h.send(.get, "/v1/devices", headers: h.bearer(enrolled.session)))
            #expect(listed.devices.first?.biometric == false)
        }
    }
}
