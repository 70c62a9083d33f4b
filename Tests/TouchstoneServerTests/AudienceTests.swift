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

/// A token is for its audience: relying services hold users' access tokens and can verify them, but never act with
/// them at Touchstone's own API.
@Suite struct AudienceTests {
    /// A password session of Ana's for `clientId`, as its relying service receives it.
    func passwordSession(_ h: Harness, clientId: String) async throws -> Session {
        let response = try await h.send(
            .post, "/v1/sessions/password",
            json: PasswordLoginRequest(clientId: clientId, username: "ana", password: Harness.password))
        #expect(response.status == .created)
        return try h.decode(Session.self, response)
    }

    /// Regression: a relying service of another publisher, holding a user's access token issued to its app, registered
    /// a passkey with it (which then signed in at `aal2` to the demo app) and listed the user's devices.
    @Test func anotherAppsTokenCannotActAtTheAPI() async throws {
        try await Harness.run { h in
            try await h.saveApp(AppPolicy(clientId: "com.other.shop", publisher: "other"))
            try await h.saveApp(AppPolicy(clientId: "com.example.pay", publisher: "demo"))
            try await h.createAccount()
            for clientId in ["com.other.shop", "com.example.pay"] {
                let held = try await passwordSession(h, clientId: clientId)
                for (method, path) in [
                    (HTTPRequest.Method.post, "/v1/webauthn/registration/options"), (.get, "/v1/devices"),
                    (.get, "/v1/account"), (.get, "/v1/webauthn/credentials"), (.delete, "/v1/sessions/current"),
                ] {
                    try h.expectProblem(
                        try await h.send(method, path, raw: "{}", headers: h.bearer(held)), 401, .unauthorized)
                }
                // The token itself is valid: its relying service can still verify it.
                let key = try await h.newAPIKey(for: clientId)
                let introspection = try await h.send(
                    .post, "/v1/introspect", json: IntrospectionRequest(token: held.accessToken),
                    headers: [.authorization: "ApiKey \(key)"])
                #expect(try h.decode(IntrospectionResult.self, introspection).active)
            }
            // The account app's own token works.
            let own = try await passwordSession(h, clientId: "com.example.demo")
            #expect(try await h.send(.get, "/v1/account", headers: h.bearer(own)).status == .ok)
        }
    }

    @Test func theAccountAppIsConfigurable() async throws {
        try await Harness.run(configure: { $0.accountClientId = "com.example.web" }) { h in
            try await h.saveApp(AppPolicy(clientId: "com.example.web", publisher: "demo"))
            try await h.createAccount()
            let demo = try await passwordSession(h, clientId: "com.example.demo")
            try h.expectProblem(try await h.send(.get, "/v1/account", headers: h.bearer(demo)), 401, .unauthorized)
            let web = try await passwordSession(h, clientId: "com.example.web")
            #expect(try await h.send(.get, "/v1/account", headers: h.bearer(web)).status == .ok)
        }
    }

    /// A device session's token counts only with a fresh proof of the very request, signed by its device key.
    @Test func aDeviceSessionNeedsItsDevicesProofOfEachRequest() async throws {
        try await Harness.run { h in
            let device = try await TestDevice()
            let enrolled = try await h.enroll(device)
            let bearer = h.bearer(enrolled.session)
            try h.expectProblem(
                try await h.send(.get, "/v1/devices", headers: bearer, signedByDevice: false), 401, .deviceProofRequired)
            func proved(_ method: String, _ path: String, by signer: TestDevice = device, deviceId: String? = nil)
                async throws -> HTTPFields
            {
                var headers = bearer
                headers[.deviceProof] = try await signer.request(
                    deviceId: deviceId ?? enrolled.deviceId, method: method, path: path, now: h.now)
                return headers
            }
            // A proof of another method, another path, by another key, or for another device.
            for headers in [
                try await proved("POST", "/v1/devices"), try await proved("GET", "/v1/account"),
                try await proved("GET", "/v1/devices", by: try await TestDevice()),
                try await proved("GET", "/v1/devices", deviceId: "another-device"),
            ] {
                try h.expectProblem(
                    try await h.send(.get, "/v1/devices", headers: headers, signedByDevice: false), 401,
                    .invalidDeviceProof)
            }
            try h.expectProblem(
                try await h.send(
                    .get, "/v1/devices", headers: bearer.merging([.deviceProof: "not-a-jws"]), signedByDevice: false),
                401, .invalidDeviceProof)
            // The right proof works once; the same proof again is a replay.
            let headers = try await proved("GET", "/v1/devices")
            #expect(try await h.send(.get, "/v1/devices", headers: headers, signedByDevice: false).status == .ok)
            try h.expectProblem(
                try await h.send(.get, "/v1/devices", headers: headers, signedByDevice: false), 401, .invalidDeviceProof)
            // The privileged token of a device session is bound the same way.
            let privileged = try await h.stepUp(enrolled.session)
            try h.expectProblem(
                try await h.send(
                    .put, "/v1/devices/\(enrolled.deviceId)/pin", json: PINRequest(pin: "975312"),
                    headers: h.bearer(privileged), signedByDevice: false),
                401, .deviceProofRequired)
            #expect(
                try await h.send(
                    .put, "/v1/devices/\(enrolled.deviceId)/pin", json: PINRequest(pin: "975312"),
                    headers: h.bearer(privileged)
                ).status == .noContent)
        }
    }

    /// Single sign-on: a device session for another app of the publisher works with its proof, whatever its `aud`.
    @Test func aDeviceSessionOfAnotherAppOfThePublisherWorksWithItsProof() async throws {
        try await Harness.run { h in
            try await h.saveApp(AppPolicy(clientId: "com.example.wallet", publisher: "demo"))
            let device = try await TestDevice()
            let enrolled = try await h.enroll(device)
            let response = try await h.login(device, deviceId: enrolled.deviceId, clientId: "com.example.wallet")
            let wallet = try h.decode(Session.self, response)
            #expect(try await h.send(.get, "/v1/devices", headers: h.bearer(wallet)).status == .ok)
            try h.expectProblem(
                try await h.send(.get, "/v1/devices", headers: h.bearer(wallet), signedByDevice: false), 401,
                .deviceProofRequired)
        }
    }
}

extension HTTPFields {
    fileprivate func merging(_ other: HTTPFields) -> HTTPFields {
        var merged = self
        for field in other { merged[field.name] = field.value }
        return merged
    }
}
