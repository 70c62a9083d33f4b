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

/// `GET /v1/devices/{deviceId}/inbox/{itemId}`: the one item a push announced, exactly as the inbox lists it, while
/// it waits in this device's inbox.
@Suite struct InboxItemTests {
    /// `itemId` of `deviceId`'s inbox, signed by `device`.
    func item(_ h: Harness, _ itemId: String, of device: TestDevice, deviceId: String) async throws -> TestResponse {
        try await h.deviceRequest(.inboxItem, itemId, by: device, deviceId: deviceId)
    }

    /// Expects `itemId` to be served exactly as the device's inbox lists it.
    func expectListed(
        _ h: Harness, _ itemId: String, of device: TestDevice, deviceId: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let listed = try #require(
            try h.jsonObject(try await h.deviceInbox(device, deviceId: deviceId))["items"] as? [[String: Any]],
            sourceLocation: sourceLocation)
        let entry = try #require(listed.first { $0["id"] as? String == itemId }, sourceLocation: sourceLocation)
        let response = try await item(h, itemId, of: device, deviceId: deviceId)
        #expect(response.status == .ok, sourceLocation: sourceLocation)
        #expect(response.headers[.cacheControl] == "no-store", sourceLocation: sourceLocation)
        let served = try h.jsonObject(response)
        #expect(NSDictionary(dictionary: served).isEqual(to: entry), "\(served) ≠ \(entry)", sourceLocation: sourceLocation)
    }

    @Test func eachKindOfItemIsServedAsTheInboxListsItUntilItStopsWaiting() async throws {
        try await Harness.run { h in
            let phone = try await TestDevice()
            let phoneId = try await h.enroll(phone).deviceId
            let bobPhone = try await TestDevice(name: "Bob's phone")
            let bobId = try await h.enroll(bobPhone, username: "bob").deviceId

            // A new device of Ana's, a confirmation and a web login wait for the phone's decision.
            let tablet = try await TestDevice(name: "Ana's tablet")
            let pending = try h.decode(
                EnrollmentPending.self, try await h.completeEnrollment(tablet, try await h.startEnrollment()))
            let key = try await h.newAPIKey(for: "com.example.demo")
            let confirmation = try h.decode(
                ConfirmationCreated.self,
                try await h.send(
                    .post, "/v1/confirmations",
                    json: ConfirmationRequest(
                        username: "ana", text: "Pay ACME", amount: "120.00", currency: "EUR", payee: "ACME Ltd"),
                    headers: [.authorization: "ApiKey \(key)"]))
            let webLogin = try h.decode(
                WebLoginStarted.self, try await h.send(.post, "/v1/web-logins", json: WebLoginRequest(username: "ana")))
            let kinds = try await h.inboxItems(phone, deviceId: phoneId).map(\.kind)
            #expect(Set(kinds) == [.enrollment, .confirmation, .webLogin])
            for id in [pending.enrollmentId, confirmation.confirmationId, webLogin.webLoginId] {
                try await expectListed(h, id, of: phone, deviceId: phoneId)
                // Not in Bob's inbox; and Bob's device cannot ask in the phone's name.
                try h.expectProblem(try await item(h, id, of: bobPhone, deviceId: bobId), 404, .notFound)
                try h.expectProblem(
                    try await h.send(
                        .get, Endpoint.inboxItem.path(phoneId, id),
                        headers: [
                            .authorization:
                                "TouchstoneDevice \(try await bobPhone.request(deviceId: phoneId, method: "GET", path: Endpoint.inboxItem.path(phoneId, id), now: h.now))"
                        ]), 401, .invalidDeviceProof)
            }
            try h.expectProblem(try await item(h, "unknown", of: phone, deviceId: phoneId), 404, .notFound)

            // Decided: the approval adds the tablet, and the phone gets a notice of it.
            let decision = try await phone.decision(
                deviceId: phoneId,
                challenge: try #require(try await h.inboxItems(phone, deviceId: phoneId).first { $0.kind == .enrollment })
                    .challenge,
                number: pending.number, now: h.now)
            #expect(try await h.decide("enrollments", pending.enrollmentId, decision).status == .ok)
            try h.expectProblem(try await item(h, pending.enrollmentId, of: phone, deviceId: phoneId), 404, .notFound)
            let notice = try #require(try await h.notices(phone, deviceId: phoneId).first)
            try await expectListed(h, notice.id, of: phone, deviceId: phoneId)
            try h.expectProblem(try await item(h, notice.id, of: bobPhone, deviceId: bobId), 404, .notFound)
            // Dismissed.
            #expect(try await h.dismiss(notice.id, device: phone, deviceId: phoneId).status == .noContent)
            try h.expectProblem(try await item(h, notice.id, of: phone, deviceId: phoneId), 404, .notFound)

            // Expired.
            h.clock.advance(by: 3_600)
            for id in [confirmation.confirmationId, webLogin.webLoginId] {
                try h.expectProblem(try await item(h, id, of: phone, deviceId: phoneId), 404, .notFound)
            }
        }
    }
}
