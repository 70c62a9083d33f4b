import Crypto
import Foundation
import TouchstoneCrypto
import TouchstoneProtocol
import _CryptoExtras

/// A device for tests: its description and keys, and the tokens it signs.
public struct TestDevice: Sendable {
    public enum Algorithm: Sendable, CaseIterable {
        case p256, ed25519, rsa2048
    }

    public var description: DeviceDescription
    public let deviceKey: DeviceSigningKey
    public let biometricKey: DeviceSigningKey?
    /// The server's ISSUER, the `aud` of every token.
    public var audience: String

    public init(
        algorithm: Algorithm = .p256, biometric: Bool = true, name: String = "Ana's phone",
        audience: String = "http://localhost:8080", compromised: Bool = false
    ) async throws {
        description = DeviceDescription(
            name: name, model: "Pixel 9", vendorId: "vendor-\(UUID().uuidString)", os: "Android 16",
            compromised: compromised)
        deviceKey = try await Self.key(algorithm)
        biometricKey = biometric ? try await Self.key(algorithm) : nil
        self.audience = audience
    }

    public static func key(_ algorithm: Algorithm) async throws -> DeviceSigningKey {
        switch algorithm {
        case .p256: try await DeviceSigningKey(.p256(P256.Signing.PrivateKey()))
        case .ed25519: try await DeviceSigningKey(.ed25519(Curve25519.Signing.PrivateKey()))
        case .rsa2048: try await DeviceSigningKey(.rsa(_RSA.Signing.PrivateKey(keySize: .bits2048)))
        }
    }

    /// The device fingerprint the server stores.
    public var fingerprint: String { DeviceFingerprint.of(description) }

    /// The body of `POST /v1/enrollments/{id}/complete`, with proofs signed for `challenge`.
    /// - Parameter replacing: the enrolled device this one replaces, which signs `previousDeviceProof`.
    public func completion(
        enrollmentId: String, challenge: String, pin: String?, replacing previous: TestDevice? = nil, now: Date = Date()
    ) async throws -> EnrollmentCompletion {
        let claims = ProofClaims(
            iss: enrollmentId, aud: audience, iat: Self.seconds(now), exp: Self.seconds(now) + 60, nonce: challenge)
        return EnrollmentCompletion(
            device: description, deviceKey: deviceKey.publicKey.jwk, biometricKey: biometricKey?.publicKey.jwk,
            pin: pin, deviceProof: try await deviceKey.sign(claims),
            biometricProof: try await biometricKey?.sign(claims),
            previousDeviceProof: try await previous?.deviceKey.sign(claims))
    }

    /// A login assertion: signed by the biometric key, or by the device key when `pin` is given.
    public func assertion(
        deviceId: String, challenge: String, pin: String? = nil, fingerprint: String? = nil,
        compromised: Bool? = nil, now: Date = Date(), lifetime: Int64 = 60
    ) async throws -> String {
        let claims = AssertionClaims(
            iss: deviceId, aud: audience, iat: Self.seconds(now), exp: Self.seconds(now) + lifetime, nonce: challenge,
            dfp: fingerprint ?? self.fingerprint, compromised: compromised, pin: pin)
        if pin == nil, let biometricKey {
            return try await biometricKey.sign(claims)
        }
        return try await deviceKey.sign(claims)
    }

    /// A `touchstone-decision+jwt` on an inbox item: signed by the biometric key, or by the device key with `pin`.
    public func decision(
        deviceId: String, challenge: String, approve: Bool = true, txn: String? = nil, number: Int? = nil,
        pin: String? = nil, now: Date = Date()
    ) async throws -> String {
        let claims = DecisionClaims(
            iss: deviceId, aud: audience, iat: Self.seconds(now), exp: Self.seconds(now) + 60, nonce: challenge,
            decision: approve ? "approve" : "deny", txn: txn, number: number, pin: pin)
        if pin == nil, let biometricKey {
            return try await biometricKey.sign(claims)
        }
        return try await deviceKey.sign(claims)
    }

    /// A `touchstone-request+jwt` for `Authorization: TouchstoneDevice`.
    public func request(deviceId: String, method: String = "POST", path: String, now: Date = Date()) async throws
        -> String
    {
        let claims = RequestClaims(
            iss: deviceId, aud: audience, iat: Self.seconds(now), exp: Self.seconds(now) + 60,
            jti: UUID().uuidString, htm: method, htu: audience + path)
        return try await deviceKey.sign(claims)
    }

    public static func seconds(_ date: Date) -> Int64 {
        Int64(date.timeIntervalSince1970.rounded(.down))
    }
}
