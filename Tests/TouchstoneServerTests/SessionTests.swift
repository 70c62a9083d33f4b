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

@Suite struct SessionTests {
    /// `POST /v1/sessions/refresh` as the device sends it.
    func refresh(_ h: Harness, _ session: Session, device: TestDevice?, deviceId: String? = nil) async throws -> TestResponse {
        var headers: HTTPFields = [:]
        if let device {
            let proof = try await device.request(deviceId: deviceId ?? session.deviceId ?? "", path: "/v1/sessions/refresh", now: h.now)
            headers[.authorization] = "TouchstoneDevice \(proof)"
        }
        return try await h.send(.post, "/v1/sessions/refresh", json: RefreshRequest(refreshToken: session.refreshToken), headers: headers)
    }

    @Test func refreshRotatesAndNeedsTheDevicesSignedRequest() async throws {
        try await Harness.run { h in
            let device = try await TestDevice()
            let enrolled = try await h.enroll(device)
            try h.expectProblem(try await refresh(h, enrolled.session, device: nil), 401, .deviceProofRequired)
            try h.expectProblem(try await refresh(h, enrolled.session, device: try await TestDevice()), 401, .invalidDeviceProof)
            let response = try await refresh(h, enrolled.session, device: device)
            #expect(response.status == .ok)
            #expect(response.headers[.cacheControl] == "no-store")
            let refreshed = try h.decode(Session.self, response)
            #expect(refreshed.refreshToken != enrolled.session.refreshToken)
            #expect(refreshed.deviceId == enrolled.deviceId)
            #expect(refreshed.amr == enrolled.session.amr)
            let old = try jwtParts(enrolled.session.accessToken).payload
            let new = try jwtParts(refreshed.accessToken).payload
            #expect(new["sid"] as? String == old["sid"] as? String)
            #expect((new["auth_time"] as? NSNumber) == (old["auth_time"] as? NSNumber))
            #expect((new["cnf"] as? [String: String])?["jkt"] == device.deviceKey.publicKey.thumbprint)
        }
    }

    @Test func deviceProofsMustNameThisRequest() async throws {
        try await Harness.run { h in
            let device = try await TestDevice()
            let enrolled = try await h.enroll(device)
            let send = { (proof: String) in
                try await h.send(
                    .post, "/v1/sessions/refresh", json: RefreshRequest(refreshToken: enrolled.session.refreshToken),
                    headers: [.authorization: "TouchstoneDevice \(proof)"])
            }
            try h.expectProblem(try await send(try await device.request(deviceId: enrolled.deviceId, path: "/v1/devices", now: h.now)), 401, .invalidDeviceProof)
            try h.expectProblem(try await send(try await device.request(deviceId: enrolled.deviceId, method: "GET", path: "/v1/sessions/refresh", now: h.now)), 401, .invalidDeviceProof)
            try h.expectProblem(try await send("garbage"), 401, .invalidDeviceProof)
            let proof = try await device.request(deviceId: enrolled.deviceId, path: "/v1/sessions/refresh", now: h.now)
            let first = try await send(proof)
            #expect(first.status == .ok)
            // A replayed request token is refused even with a valid refresh token.
            let second = try h.decode(Session.self, first)
            let replay = try await h.send(
                .post, "/v1/sessions/refresh", json: RefreshRequest(refreshToken: second.refreshToken),
                headers: [.authorization: "TouchstoneDevice \(proof)"])
            try h.expectProblem(replay, 401, .invalidDeviceProof)
            // The refused requests did not rotate anything: the current token still works.
            #expect(try await refresh(h, second, device: device).status == .ok)
        }
    }

    @Test func reuseOfARotatedTokenRevokesTheFamily() async throws {
        try await Harness.run { h in
            let device = try await TestDevice()
            let enrolled = try await h.enroll(device)
            let rotated = try h.decode(Session.self, try await refresh(h, enrolled.session, device: device))
            try h.expectProblem(try await refresh(h, enrolled.session, device: device), 401, .refreshTokenReused)
            // The whole family is gone: the newest refresh token and its access token too.
            try h.expectProblem(try await refresh(h, rotated, device: device), 401, .refreshTokenInvalid)
            try h.expectProblem(try await h.send(.get, "/v1/devices", headers: h.bearer(rotated)), 401, .unauthorized)
        }
    }

    @Test func concurrentRefreshesWithOneTokenRotateOnce() async throws {
        try await Harness.run { h in
            let device = try await TestDevice()
            let enrolled = try await h.enroll(device)
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<6 {
                    group.addTask { Int(try await refresh(h, enrolled.session, device: device).status.code) }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 200 }.count <= 1)
            #expect(statuses.filter { $0 == 401 }.count >= 5)
        }
    }

    @Test func unknownRefreshTokensAreInvalid() async throws {
        try await Harness.run { h in
            let response = try await h.send(.post, "/v1/sessions/refresh", json: RefreshRequest(refreshToken: "nope"))
            try h.expectProblem(response, 401, .refreshTokenInvalid)
        }
    }

    @Test func inactivityEndsSilentRefresh() async throws {
        try await Harness.run { h in
            let device = try await TestDevice()
            let enrolled = try await h.enroll(device)
            h.clock.advance(by: 899)
            let refreshed = try h.decode(Session.self, try await refresh(h, enrolled.session, device: device))
            h.clock.advance(by: 901)
            try h.expectProblem(try await refresh(h, refreshed, device: device), 401, .reauthenticationRequired)
            // Unlocking again gives a new session.
            #expect(try await h.login(device, deviceId: enrolled.deviceId).status == .created)
        }
    }

    @Test func sessionsEndAfterTheirMaximumLifetime() async throws {
        try await Harness.run { h in
            let device = try await TestDevice()
            var session = try await h.enroll(device).session
            // Refresh every 14 minutes: never idle, but 12 h after the login it is over.
            var elapsed: TimeInterval = 0
            while elapsed + 840 <= 43_200 {
                h.clock.advance(by: 840)
                elapsed += 840
                let response = try await refresh(h, session, device: device)
                #expect(response.status == .ok)
                session = try h.decode(Session.self, response)
            }
            h.clock.advance(by: 840)
            try h.expectProblem(try await refresh(h, session, device: device), 401, .reauthenticationRequired)
        }
    }

    @Test func passwordSessionsRefreshWithoutADevice() async throws {
        try await Harness.run { h in
            try await h.createAccount()
            let session = try h.decode(
                Session.self,
                try await h.send(.post, "/v1/sessions/password", json: PasswordLoginRequest(clientId: "com.example.demo", username: "ana", password: Harness.password)))
            let response = try await refresh(h, session, device: nil)
            #expect(response.status == .ok)
            #expect(try h.decode(Session.self, response).acr == "aal1")
        }
    }

    @Test func logoutEndsTheSession() async throws {
        try await Harness.run { h in
            let device = try await TestDevice()
            let enrolled = try await h.enroll(device)
            try h.expectProblem(try await h.send(.delete, "/v1/sessions/current"), 401, .unauthorized)
            try h.expectProblem(try await h.send(.delete, "/v1/sessions/current", headers: [.authorization: "Bearer x.y.z"]), 401, .unauthorized)
            #expect(try await h.send(.delete, "/v1/sessions/current", headers: h.bearer(enrolled.session)).status == .noContent)
            try h.expectProblem(try await h.send(.get, "/v1/devices", headers: h.bearer(enrolled.session)), 401, .unauthorized)
            try h.expectProblem(try await refresh(h, enrolled.session, device: device), 401, .refreshTokenInvalid)
        }
    }

    @Test func accessTokensExpire() async throws {
        try await Harness.run { h in
            let enrolled = try await h.enroll(try await TestDevice())
            #expect(try await h.send(.get, "/v1/devices", headers: h.bearer(enrolled.session)).status == .ok)
            h.clock.advance(by: 601)
            try h.expectProblem(try await h.send(.get, "/v1/devices", headers: h.bearer(enrolled.session)), 401, .unauthorized)
        }
    }

    @Test func accessTokensSignedByAnythingElseAreRefused() async throws {
        try await Harness.run { h in
            let enrolled = try await h.enroll(try await TestDevice())
            var parts = enrolled.session.accessToken.split(separator: ".").map(String.init)
            // alg none, and a payload swapped under the original signature.
            let none = Base64URL.encode(Data(#"{"alg":"none","typ":"at+jwt"}"#.utf8)) + "." + parts[1] + "."
            try h.expectProblem(try await h.send(.get, "/v1/devices", headers: [.authorization: "Bearer \(none)"]), 401, .unauthorized)
            var payload = try jwtParts(enrolled.session.accessToken).payload
            payload["sub"] = "someone-else"
            parts[1] = Base64URL.encode(try JSONSerialization.data(withJSONObject: payload))
            try h.expectProblem(
                try await h.send(.get, "/v1/devices", headers: [.authorization: "Bearer \(parts.joined(separator: "."))"]), 401, .unauthorized)
        }
    }
}
