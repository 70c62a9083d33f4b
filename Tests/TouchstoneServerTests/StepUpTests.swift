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

@Suite struct StepUpTests {
    /// `POST /v1/step-up` with the session's access token.
    func stepUp(_ h: Harness, _ session: Session, password: String = Harness.password) async throws -> TestResponse {
        try await h.send(.post, "/v1/step-up", json: PasswordRequest(password: password), headers: h.bearer(session))
    }

    /// A privileged token of the session, expecting success.
    func privileged(_ h: Harness, _ session: Session) async throws -> Session {
        let response = try await stepUp(h, session)
        #expect(response.status == .ok)
        var privileged = session
        privileged.accessToken = try h.decode(StepUpToken.self, response).accessToken
        privileged.scope = "session privileged"
        return privileged
    }

    /// The app the two-device tests enrol with: no approval needed for the second device.
    static let openApp = AppPolicy(clientId: "com.example.open", publisher: "demo", newDeviceApproval: false)

    @Test func aPasswordSessionCannotStepUp() async throws {
        try await Harness.run { h in
            try await h.createAccount()
            let response = try await h.send(
                .post, "/v1/sessions/password",
                json: PasswordLoginRequest(clientId: "com.example.demo", username: "ana", password: Harness.password))
            let session = try h.decode(Session.self, response)
            #expect(session.acr == "aal1")
            try h.expectProblem(try await stepUp(h, session), 403, .insufficientAuthentication)
            try h.expectProblem(
                try await h.send(.post, "/v1/step-up", json: PasswordRequest(password: Harness.password)), 401, .unauthorized)
        }
    }

    @Test func stepUpGivesAShortPrivilegedTokenOfTheSameSession() async throws {
        try await Harness.run { h in
            try await h.saveApp(AppPolicy(clientId: "com.example.short", publisher: "demo", privilegedWindowSeconds: 120))
            let device = try await TestDevice()
            let enrolled = try await h.enroll(device, clientId: "com.example.short")
            let response = try await stepUp(h, enrolled.session)
            #expect(response.status == .ok)
            #expect(response.headers[.cacheControl] == "no-store")
            #expect(Set(try h.jsonObject(response).keys) == ["accessToken", "expiresIn", "scope"])
            let token = try h.decode(StepUpToken.self, response)
            #expect(token.scope == "session privileged")
            #expect(token.expiresIn == 120)
            let claims = try jwtParts(token.accessToken).payload
            let session = try jwtParts(enrolled.session.accessToken).payload
            #expect(claims["scope"] as? String == "session privileged")
            #expect(claims["sid"] as? String == session["sid"] as? String)
            #expect(claims["sub"] as? String == enrolled.session.userId)
            #expect(claims["did"] as? String == enrolled.deviceId)
            #expect(claims["acr"] as? String == "aal2")
            let iat = try #require((claims["iat"] as? NSNumber)?.int64Value)
            #expect((claims["exp"] as? NSNumber)?.int64Value == iat + 120)
            #expect(iat == TestDevice.seconds(h.now))

            // Not refreshable: refreshing the session gives back an ordinary token.
            let proof = try await device.request(deviceId: enrolled.deviceId, path: "/v1/sessions/refresh", now: h.now)
            let refreshed = try await h.send(
                .post, "/v1/sessions/refresh", json: RefreshRequest(refreshToken: enrolled.session.refreshToken),
                headers: [.authorization: "TouchstoneDevice \(proof)"])
            #expect(refreshed.status == .ok)
            let ordinary = try h.decode(Session.self, refreshed)
            #expect(ordinary.scope == "session")
            #expect(try jwtParts(ordinary.accessToken).payload["scope"] as? String == "session")

            // The window closes: the privileged token expires, the session's own token still works without privilege.
            let privileged: HTTPFields = [.authorization: "Bearer \(token.accessToken)"]
            let pin = PINRequest(pin: "975312")
            h.clock.advance(by: 121)
            try h.expectProblem(
                try await h.send(.put, "/v1/devices/\(enrolled.deviceId)/pin", json: pin, headers: privileged), 401,
                .unauthorized)
            try h.expectProblem(
                try await h.send(.put, "/v1/devices/\(enrolled.deviceId)/pin", json: pin, headers: h.bearer(ordinary)), 403,
                .stepUpRequired)
        }
    }

    @Test func thePrivilegedTokenEndsWithItsSession() async throws {
        try await Harness.run { h in
            let enrolled = try await h.enroll(try await TestDevice())
            let privileged = try await privileged(h, enrolled.session)
            #expect(try await h.send(.get, "/v1/devices", headers: h.bearer(privileged)).status == .ok)
            #expect(try await h.send(.delete, "/v1/sessions/current", headers: h.bearer(enrolled.session)).status == .noContent)
            try h.expectProblem(try await h.send(.get, "/v1/devices", headers: h.bearer(privileged)), 401, .unauthorized)
            try h.expectProblem(
                try await h.send(.put, "/v1/devices/\(enrolled.deviceId)/pin", json: PINRequest(pin: "975312"), headers: h.bearer(privileged)),
                401, .unauthorized)
        }
    }

    @Test func wrongPasswordsAreRefusedAndThrottled() async throws {
        try await Harness.run { h in
            let enrolled = try await h.enroll(try await TestDevice())
            for _ in 0..<5 {
                try h.expectProblem(try await stepUp(h, enrolled.session, password: "not the password"), 401, .invalidCredentials)
            }
            let throttled = try await stepUp(h, enrolled.session, password: "not the password")
            try h.expectProblem(throttled, 429, .tooManyAttempts)
            let retryAfter = try #require(throttled.headers[.retryAfter].flatMap { Int($0) })
            #expect(retryAfter >= 1)
            // The right password waits too, then works.
            try h.expectProblem(try await stepUp(h, enrolled.session), 429, .tooManyAttempts)
            h.clock.advance(by: TimeInterval(retryAfter))
            #expect(try await stepUp(h, enrolled.session).status == .ok)
        }
    }

    @Test func settingAPINNeedsPrivilegeAndAValidPINOfOwnDevice() async throws {
        try await Harness.run { h in
            let device = try await TestDevice()
            let enrolled = try await h.enroll(device)
            let bob = try await h.enroll(try await TestDevice(name: "Bob's phone"), username: "bob")
            let path = "/v1/devices/\(enrolled.deviceId)/pin"
            try h.expectProblem(
                try await h.send(.put, path, json: PINRequest(pin: "975312"), headers: h.bearer(enrolled.session)), 403,
                .stepUpRequired)
            try h.expectProblem(try await h.send(.put, path, json: PINRequest(pin: "975312")), 401, .unauthorized)
            let privileged = try await privileged(h, enrolled.session)
            for trivial in ["111111", "123456", "654321", "12345", "123456789", "12a456"] {
                try h.expectProblem(
                    try await h.send(.put, path, json: PINRequest(pin: trivial), headers: h.bearer(privileged)), 400, .invalidPIN)
            }
            for other in [bob.deviceId, "unknown"] {
                try h.expectProblem(
                    try await h.send(.put, "/v1/devices/\(other)/pin", json: PINRequest(pin: "975312"), headers: h.bearer(privileged)),
                    404, .deviceNotFound)
            }
            try h.expectProblem(
                try await h.send(.put, path, json: ["pin": 975_312], headers: h.bearer(privileged)), 400, .invalidRequest)
            // Nothing changed so far: the old PIN still logs in.
            #expect(try await h.login(device, deviceId: enrolled.deviceId, pin: Harness.pin).status == .created)
            #expect(try await h.send(.put, path, json: PINRequest(pin: "975312"), headers: h.bearer(privileged)).status == .noContent)
            #expect(try await h.login(device, deviceId: enrolled.deviceId, pin: "975312").status == .created)
            try h.expectProblem(try await h.login(device, deviceId: enrolled.deviceId, pin: Harness.pin), 401, .pinIncorrect)
        }
    }

    @Test func settingThePINUnlocksALockedPIN() async throws {
        try await Harness.run { h in
            let device = try await TestDevice()
            let enrolled = try await h.enroll(device)
            for _ in 0..<4 {
                try h.expectProblem(try await h.login(device, deviceId: enrolled.deviceId, pin: "975310"), 401, .pinIncorrect)
            }
            try h.expectProblem(try await h.login(device, deviceId: enrolled.deviceId, pin: "975310"), 423, .pinLocked)
            #expect(try await h.store.device(id: enrolled.deviceId)?.pinLockedAt != nil)
            let privileged = try await privileged(h, enrolled.session)
            let response = try await h.send(
                .put, "/v1/devices/\(enrolled.deviceId)/pin", json: PINRequest(pin: "240617"), headers: h.bearer(privileged))
            #expect(response.status == .noContent)
            let stored = try #require(try await h.store.device(id: enrolled.deviceId))
            #expect(stored.pinFailures == 0)
            #expect(stored.pinLockedAt == nil)
            let login = try await h.login(device, deviceId: enrolled.deviceId, pin: "240617")
            #expect(login.status == .created)
            #expect(try h.decode(Session.self, login).amr == ["pin"])
        }
    }

    @Test func removingOrOptingOutAnotherDeviceNeedsPrivilege() async throws {
        try await Harness.run { h in
            try await h.saveApp(Self.openApp)
            let phone = try await h.enroll(try await TestDevice(), clientId: "com.example.open")
            let tabletDevice = try await TestDevice(name: "Ana's tablet")
            let tablet = try await h.enroll(tabletDevice, clientId: "com.example.open", createAccount: false)
            let optOut = "/v1/devices/\(tablet.deviceId)/biometric-key"
            let remove = "/v1/devices/\(tablet.deviceId)"
            try h.expectProblem(try await h.send(.delete, optOut, headers: h.bearer(phone.session)), 403, .stepUpRequired)
            try h.expectProblem(try await h.send(.delete, remove, headers: h.bearer(phone.session)), 403, .stepUpRequired)
            #expect(try await h.store.device(id: tablet.deviceId)?.biometricKey != nil)

            let privileged = try await privileged(h, phone.session)
            #expect(try await h.send(.delete, optOut, headers: h.bearer(privileged)).status == .noContent)
            #expect(try await h.store.device(id: tablet.deviceId)?.biometricKey == nil)
            try h.expectProblem(try await h.login(tabletDevice, deviceId: tablet.deviceId, clientId: "com.example.open"), 401, .invalidAssertion)

            #expect(try await h.send(.delete, remove, headers: h.bearer(privileged)).status == .noContent)
            #expect(try await h.store.device(id: tablet.deviceId)?.revokedAt != nil)
            try h.expectProblem(try await h.send(.get, "/v1/devices", headers: h.bearer(tablet.session)), 401, .unauthorized)
            // The caller's own session is untouched.
            #expect(try await h.send(.get, "/v1/devices", headers: h.bearer(phone.session)).status == .ok)
        }
    }

    @Test func changingThePasswordNeedsPrivilegeAndEndsEveryOtherSession() async throws {
        try await Harness.run { h in
            let device = try await TestDevice()
            let enrolled = try await h.enroll(device)
            let secondLogin = try h.decode(Session.self, try await h.login(device, deviceId: enrolled.deviceId))
            let passwordLogin = { (password: String) in
                try await h.send(
                    .post, "/v1/sessions/password",
                    json: PasswordLoginRequest(clientId: "com.example.demo", username: "ana", password: password))
            }
            let web = try h.decode(Session.self, try await passwordLogin(Harness.password))
            let newPassword = "a much better passphrase"

            try h.expectProblem(
                try await h.send(.put, "/v1/account/password", json: PasswordRequest(password: newPassword), headers: h.bearer(enrolled.session)),
                403, .stepUpRequired)
            let privileged = try await privileged(h, enrolled.session)
            for weak in ["short12", String(repeating: "x", count: 1025)] {
                try h.expectProblem(
                    try await h.send(.put, "/v1/account/password", json: PasswordRequest(password: weak), headers: h.bearer(privileged)),
                    400, .weakPassword)
            }
            // Refusals changed nothing.
            #expect(try await h.send(.get, "/v1/devices", headers: h.bearer(web)).status == .ok)

            let changed = try await h.send(
                .put, "/v1/account/password", json: PasswordRequest(password: newPassword), headers: h.bearer(privileged))
            #expect(changed.status == .noContent)
            for other in [secondLogin, web] {
                try h.expectProblem(try await h.send(.get, "/v1/devices", headers: h.bearer(other)), 401, .unauthorized)
            }
            try h.expectProblem(
                try await h.send(.post, "/v1/sessions/refresh", json: RefreshRequest(refreshToken: web.refreshToken)), 401,
                .refreshTokenInvalid)
            // The caller's session stays, privileged or not.
            #expect(try await h.send(.get, "/v1/devices", headers: h.bearer(enrolled.session)).status == .ok)
            #expect(try await h.send(.get, "/v1/devices", headers: h.bearer(privileged)).status == .ok)

            #expect(try await passwordLogin(newPassword).status == .created)
            try h.expectProblem(try await passwordLogin(Harness.password), 401, .invalidCredentials)
        }
    }
}
