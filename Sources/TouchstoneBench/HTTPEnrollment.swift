import Foundation
import TouchstoneProtocol

/// Creates accounts and enrols devices over the v1 protocol only (`--server` mode): `POST /v1/accounts`,
/// `POST /v1/enrollments`, `POST /v1/enrollments/{id}/complete` with both proofs of possession.
///
/// Each device costs the server three bcrypt computations (password hash, password check, PIN hash), so this is
/// slow by design; it is not timed.
public struct HTTPEnrollment: Sendable {
    let http: BenchHTTP
    public let clientId: String
    /// A password for every benchmark account (the bench never logs in with it after enrolment).
    let password: String

    public init(http: BenchHTTP, clientId: String, password: String) {
        self.http = http
        self.clientId = clientId
        self.password = password
    }

    /// The server's ISSUER (the `aud` of device tokens), read from the `iss` of a password session's access token.
    ///
    /// The token is only read, not verified: the bench is the client here and only learns where to address proofs.
    /// - Parameter credentials: an account created by ``createAccount(_:)``.
    public func issuer(using credentials: BenchCredentials) async throws -> String {
        let answer = try await http.post(
            Endpoint.passwordSession.path(),
            PasswordLoginRequest(clientId: clientId, username: credentials.username, password: password))
        guard answer.status == 201 else { throw BenchError("POST /v1/sessions/password answered \(answer.errorCode)") }
        struct Claims: Decodable { var iss: String }
        let session = try answer.decode(Session.self)
        let parts = session.accessToken.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let payload = Base64URL.decode(String(parts[1])),
            let claims = try? JSONDecoder().decode(Claims.self, from: payload)
        else { throw BenchError("the access token of a password session has no readable iss") }
        return claims.iss
    }

    /// `POST /v1/accounts`.
    public func createAccount(_ credentials: BenchCredentials) async throws {
        let answer = try await http.post(
            Endpoint.createAccount.path(), CreateAccountRequest(username: credentials.username, password: password))
        guard answer.status == 201 else { throw BenchError("POST /v1/accounts answered \(answer.errorCode)") }
    }

    /// Enrols the account's device with a biometric key, a device key and the PIN.
    /// - Parameter audience: the server's ISSUER.
    public func enrol(_ credentials: BenchCredentials, audience: String) async throws -> BenchDevice {
        let started = try await http.post(
            Endpoint.startEnrollment.path(),
            PasswordLoginRequest(clientId: clientId, username: credentials.username, password: password))
        guard started.status == 201 else { throw BenchError("POST /v1/enrollments answered \(started.errorCode)") }
        let enrollment = try started.decode(EnrollmentStartedBody.self)
        let now = Date()
        let completion = EnrollmentCompletion(
            device: credentials.device, deviceKey: credentials.deviceJWK, biometricKey: credentials.biometricJWK,
            pin: BenchCredentials.pin,
            deviceProof: try BenchDevice.proof(
                key: credentials.deviceKey, enrollmentId: enrollment.enrollmentId, challenge: enrollment.challenge,
                audience: audience, now: now),
            biometricProof: try BenchDevice.proof(
                key: credentials.biometricKey, enrollmentId: enrollment.enrollmentId, challenge: enrollment.challenge,
                audience: audience, now: now))
        let completed = try await http.post(Endpoint.completeEnrollment.path(enrollment.enrollmentId), completion)
        guard completed.status == 201 else {
            throw BenchError("POST /v1/enrollments/{id}/complete answered \(completed.errorCode)")
        }
        return credentials.enrolled(as: try completed.decode(EnrollmentCompletedBody.self).deviceId)
    }

    private struct EnrollmentStartedBody: Decodable {
        var enrollmentId: String
        var challenge: String
    }

    private struct EnrollmentCompletedBody: Decodable {
        var deviceId: String
    }
}

/// Why the bench could not run; printed as the one-line reason.
public struct BenchError: Error, CustomStringConvertible, Sendable {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
