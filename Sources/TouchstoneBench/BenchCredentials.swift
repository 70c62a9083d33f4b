import Crypto
import Foundation
import TouchstoneCrypto
import TouchstoneProtocol

/// A benchmark user and its device before enrolment: username, device description and two fresh P-256 keys.
public struct BenchCredentials: Sendable {
    public let username: String
    public let device: DeviceDescription
    /// The device key (possession, with the PIN); the bench never logs in with it.
    public let deviceKey: P256.Signing.PrivateKey
    /// The biometric key every benchmark login signs with.
    public let biometricKey: P256.Signing.PrivateKey

    /// The PIN every benchmark device enrols with (never used by a biometric login).
    public static let pin = "482915"

    /// Creates user `index` of the run `runId`, with new keys.
    public init(runId: String, index: Int) {
        username = "bench-\(runId)-\(index)"
        device = DeviceDescription(
            name: "bench device \(index)", model: "touchstone-bench", vendorId: "bench-\(runId)-\(index)",
            os: "Linux", compromised: false)
        deviceKey = Self.newKey()
        biometricKey = Self.newKey()
    }

    /// A new P-256 key from 32 random bytes: one multiplication by the base point. swift-crypto's own generator also
    /// signs and verifies with each new key (FIPS's pair-wise test) and draws again until the key is
    /// compact-representable, which made key generation the slowest part of seeding a million devices.
    static func newKey() -> P256.Signing.PrivateKey {
        var generator = SystemRandomNumberGenerator()
        while true {
            let scalar = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            // Refused only when the scalar is 0 or not below the group's order: about once in 2³² draws.
            if let key = try? P256.Signing.PrivateKey(rawRepresentation: scalar) { return key }
        }
    }

    /// The users `indices` of the run `runId`, their keys generated on every core.
    public static func generate(_ indices: Range<Int>, runId: String) async -> [BenchCredentials] {
        let slices = max(1, ProcessInfo.processInfo.activeProcessorCount)
        let size = max(1, (indices.count + slices - 1) / slices)
        return await withTaskGroup(of: (Int, [BenchCredentials]).self) { group in
            for start in stride(from: indices.lowerBound, to: indices.upperBound, by: size) {
                group.addTask {
                    (start, (start..<min(indices.upperBound, start + size)).map { BenchCredentials(runId: runId, index: $0) })
                }
            }
            var parts: [(Int, [BenchCredentials])] = []
            for await part in group { parts.append(part) }
            return parts.sorted { $0.0 < $1.0 }.flatMap(\.1)
        }
    }

    public var deviceJWK: PublicJWK { Self.jwk(deviceKey.publicKey) }
    public var biometricJWK: PublicJWK { Self.jwk(biometricKey.publicKey) }

    /// The device once the server knows it as `deviceId`.
    public func enrolled(as deviceId: String) -> BenchDevice {
        BenchDevice(deviceId: deviceId, key: biometricKey, fingerprint: DeviceFingerprint.of(device))
    }

    static func jwk(_ key: P256.Signing.PublicKey) -> PublicJWK {
        let point = key.rawRepresentation
        return PublicJWK(kty: "EC", crv: "P-256", x: Base64URL.encode(point.prefix(32)), y: Base64URL.encode(point.suffix(32)))
    }
}
