import Foundation
import Testing
import TouchstoneProtocol
import TouchstoneTestSupport

/// A user with one test device enrolled over HTTP, as an outside client would do it.
struct EnrolledDevice {
    static let password = "tangerine-Orbit-5521"
    static let pin = "482915"

    let client: WireClient
    let device: TestDevice
    let clientId: String
    let username: String
    let deviceId: String
    let userId: String
    /// The session the completed enrolment returned.
    let firstSession: Session

    /// Creates the account (unless it exists) and enrols a new device with a PIN.
    static func enrol(
        on server: ServerProcess, client: WireClient, algorithm: TestDevice.Algorithm = .p256, username: String = "ana",
        clientId: String = "com.example.demo", createAccount: Bool = true
    ) async throws -> EnrolledDevice {
        try await enrol(
            issuer: server.issuer, client: client, algorithm: algorithm, username: username, clientId: clientId,
            createAccount: createAccount)
    }

    /// Creates the account (unless it exists) and enrols a new device with a PIN at the server of `issuer`.
    static func enrol(
        issuer: String, client: WireClient, algorithm: TestDevice.Algorithm = .p256, username: String = "ana",
        clientId: String = "com.example.demo", createAccount: Bool = true
    ) async throws -> EnrolledDevice {
        if createAccount {
            let created = try await client.post(
                "/v1/accounts", CreateAccountRequest(username: username, password: password))
            try #require(created.status == 201, "POST /v1/accounts: \(created)")
        }
        let started = try await client.post(
            "/v1/enrollments", PasswordLoginRequest(clientId: clientId, username: username, password: password))
        try #require(started.status == 201, "POST /v1/enrollments: \(started)")
        #expect(started.header("Cache-Control") == "no-store")
        let enrollment = try started.decode(EnrollmentStarted.self)

        var device = try await TestDevice(algorithm: algorithm)
        device.audience = issuer
        let completion = try await device.completion(
            enrollmentId: enrollment.enrollmentId, challenge: enrollment.challenge, pin: pin)
        let completed = try await client.post("/v1/enrollments/\(enrollment.enrollmentId)/complete", completion)
        try #require(completed.status == 201, "POST /v1/enrollments/…/complete: \(completed)")
        #expect(completed.header("Cache-Control") == "no-store")
        let result = try completed.decode(EnrollmentCompleted.self)
        return EnrolledDevice(
            client: client, device: device, clientId: clientId, username: username, deviceId: result.deviceId,
            userId: result.session.userId, firstSession: result.session)
    }

    /// This device talking to `client` (the same server started again).
    func talking(to client: WireClient) -> EnrolledDevice {
        EnrolledDevice(
            client: client, device: device, clientId: clientId, username: username, deviceId: deviceId, userId: userId,
            firstSession: firstSession)
    }

    /// `POST /v1/challenges` for this device, as sent.
    func requestChallenge() async throws -> WireResponse {
        try await client.post("/v1/challenges", ChallengeRequest(deviceId: deviceId))
    }

    /// A login challenge, which must be issued.
    func challenge() async throws -> String {
        let response = try await requestChallenge()
        try #require(response.status == 201, "POST /v1/challenges: \(response)")
        return try response.decode(ChallengeIssued.self).challenge
    }

    /// A login assertion over a fresh challenge: biometric, or device key with `pin`.
    func assertion(pin: String? = nil) async throws -> String {
        try await device.assertion(deviceId: deviceId, challenge: try await challenge(), pin: pin)
    }

    /// `POST /v1/sessions` with an assertion, as answered.
    func login(assertion: String) async throws -> WireResponse {
        try await client.post("/v1/sessions", AssertionLoginRequest(clientId: clientId, assertion: assertion))
    }

    /// A session from a fresh biometric (or, with `pin`, PIN) login, which must succeed.
    func session(pin: String? = nil) async throws -> Session {
        let response = try await login(assertion: try await assertion(pin: pin))
        try #require(response.status == 201, "POST /v1/sessions: \(response)")
        return try response.decode(Session.self)
    }

    /// `POST /v1/sessions/refresh` signed by this device (unless `signed` is false), as answered.
    func refresh(_ refreshToken: String, signed: Bool = true) async throws -> WireResponse {
        var headers: [String: String] = [:]
        if signed {
            let proof = try await device.request(deviceId: deviceId, path: "/v1/sessions/refresh")
            headers["Authorization"] = "TouchstoneDevice \(proof)"
        }
        return try await client.post("/v1/sessions/refresh", RefreshRequest(refreshToken: refreshToken), headers: headers)
    }

    /// `Authorization: Bearer` and the `Touchstone-Device-Proof` of one request signed by this device, as a device
    /// session's access token needs.
    func bearer(_ accessToken: String, _ method: String, _ path: String) async throws -> [String: String] {
        [
            "Authorization": "Bearer \(accessToken)",
            TouchstoneHeader.deviceProof: try await device.request(deviceId: deviceId, method: method, path: path),
        ]
    }

    /// `GET /v1/devices` with a Bearer token and its device proof, as answered by `other` (default: this device's
    /// server).
    func devices(accessToken: String, at other: WireClient? = nil) async throws -> WireResponse {
        try await (other ?? client).get("/v1/devices", headers: try await bearer(accessToken, "GET", "/v1/devices"))
    }

    /// `DELETE /v1/sessions/current` (logout) with a Bearer token and its device proof, as answered.
    func logout(accessToken: String) async throws -> WireResponse {
        try await client.send(
            "DELETE", "/v1/sessions/current", headers: try await bearer(accessToken, "DELETE", "/v1/sessions/current"))
    }
}
