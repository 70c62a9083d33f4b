import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
import TouchstoneProtocol
import TouchstoneTestSupport

@testable import TouchstoneDomain
@testable import TouchstoneStorage

extension Harness {
    /// `POST /v1/enrollments` with a recovery code.
    func startEnrollment(_ username: String = "ana", recoveryCode: String?, password: String = Harness.password)
        async throws -> TestResponse
    {
        try await send(
            .post, "/v1/enrollments",
            json: EnrollmentStartRequest(
                clientId: "com.example.demo", username: username, password: password, recoveryCode: recoveryCode))
    }

    /// Enrols `device` with a recovery code, expecting 201 at both steps.
    @discardableResult
    func enrollWithCode(_ device: TestDevice, code: String, username: String = "ana") async throws -> EnrollmentCompleted {
        let response = try await startEnrollment(username, recoveryCode: code)
        #expect(response.status == .created)
        let completed = try await completeEnrollment(device, try decode(EnrollmentStarted.self, response))
        #expect(completed.status == .created)
        let enrolled = try decode(EnrollmentCompleted.self, completed)
        devices[enrolled.deviceId] = device
        return enrolled
    }

    /// `POST /v1/account/recovery-codes` with `session` stepped up first; the ten codes.
    func createRecoveryCodes(_ session: Session) async throws -> [String] {
        let response = try await send(.post, "/v1/account/recovery-codes", headers: bearer(try await stepUp(session)))
        #expect(response.status == .created)
        return try decode(RecoveryCodes.self, response).codes
    }

    /// The notices in `device`'s inbox.
    func notices(_ device: TestDevice, deviceId: String, sourceLocation: SourceLocation = #_sourceLocation)
        async throws -> [SecurityNotice]
    {
        let response = try await deviceInbox(device, deviceId: deviceId)
        #expect(response.status == .ok, sourceLocation: sourceLocation)
        return try decode(Inbox.self, response).notices
    }

    /// `DELETE /v1/devices/{deviceId}/inbox/{id}` signed by `device`.
    func dismiss(_ id: String, device: TestDevice, deviceId: String) async throws -> TestResponse {
        let path = "/v1/devices/\(deviceId)/inbox/\(id)"
        let proof = try await device.request(deviceId: deviceId, method: "DELETE", path: path, now: now)
        return try await send(.delete, path, headers: [.authorization: "TouchstoneDevice \(proof)"])
    }

    /// `GET /v1/sessions` as `session`.
    func sessions(_ session: Session, sourceLocation: SourceLocation = #_sourceLocation) async throws -> [SessionSummary] {
        let response = try await send(.get, "/v1/sessions", headers: bearer(session))
        #expect(response.status == .ok, sourceLocation: sourceLocation)
        return try decode(SessionList.self, response).sessions
    }

    /// The `sid` of a session's access token.
    func sessionId(_ session: Session) throws -> String {
        try #require(try jwtParts(session.accessToken).payload["sid"] as? String)
    }

    /// Every stored notice row of the user (devices' and the account's copies).
    func storedNotices(userId: String) async throws -> [(deviceId: String?, event: String)] {
        let provider = try #require(store as? SQLStore).provider
        return try await provider.read { database in
            try await database.raw(
                "SELECT device_id, event FROM notices WHERE user_id = \(bind: userId) ORDER BY seq, id"
            ).all().map { row in
                (try row.decode(column: "device_id", as: String?.self), try row.string("event"))
            }
        }
    }
}
