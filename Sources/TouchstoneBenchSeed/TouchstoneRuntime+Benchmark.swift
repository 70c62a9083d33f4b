import Foundation
import TouchstoneCrypto
import TouchstoneDomain
import TouchstoneProtocol
import TouchstoneServer
import TouchstoneStorage

extension TouchstoneRuntime {
    /// Writes users and enrolled devices directly, as completed enrolments leave them, so that a benchmark can
    /// set up 100,000 devices in seconds instead of hours of bcrypt.
    ///
    /// Each row has the shape an enrolment writes: the keys are parsed and validated and their thumbprints computed
    /// as enrolment does, the device fingerprint is computed from the description, the PIN is hashed with bcrypt at
    /// the server's cost. To keep it fast, every user of one call shares one password hash (of a random password
    /// nobody knows) and every device one PIN hash (two bcrypts per call, however many devices); biometric logins
    /// read neither. The rows are written in transactions of ``devicesPerTransaction``.
    /// - Parameters:
    ///   - clientId: the app the devices enrol with; it must exist.
    ///   - pin: the PIN of every device.
    /// - Returns: the device ids, in the order of `enrollments`.
    /// - Throws: `ProblemError` for an unknown app or two equal keys, `KeyError` for a key enrolment would refuse.
    /// - ⚠️ Not an enrolment: no password check, proof of possession, policy check or approval. Only
    ///   `touchstone bench` calls it, on a database it creates for the run (or one its user named); no route reaches it,
    ///   and it is `package`, not `public`: apps that link TouchstoneServer cannot call it.
    package func insecureEnrollForBenchmark(
        _ enrollments: [BenchmarkEnrollment], clientId: String, pin: String
    ) async throws -> [String] {
        let app = try await environment.app(clientId)
        let passwordHash = try await environment.hasher.hash(SecretDigest.randomToken())
        let pinHash = try await environment.hasher.hash(pin)
        var ids: [String] = []
        ids.reserveCapacity(enrollments.count)
        for start in stride(from: 0, to: enrollments.count, by: Self.devicesPerTransaction) {
            let batch = enrollments[start..<min(enrollments.count, start + Self.devicesPerTransaction)]
            ids += try await insertBenchmarkBatch(batch, app: app, passwordHash: passwordHash, pinHash: pinHash)
        }
        return ids
    }

    /// Devices written per transaction by ``insecureEnrollForBenchmark(_:clientId:pin:)``.
    package static let devicesPerTransaction = 10_000

    private func insertBenchmarkBatch(
        _ enrollments: ArraySlice<BenchmarkEnrollment>, app: AppRecord, passwordHash: String, pinHash: String
    ) async throws -> [String] {
        let now = environment.clock.now()
        var users: [UserRecord] = []
        var devices: [DeviceRecord] = []
        for enrollment in enrollments {
            let user = UserRecord(
                id: RecordID.random(), username: enrollment.username, passwordHash: passwordHash, createdAt: now)
            let deviceKey = try DevicePublicKey(jwk: enrollment.deviceKey)
            let biometricKey = try DevicePublicKey(jwk: enrollment.biometricKey)
            guard deviceKey.thumbprint != biometricKey.thumbprint else {
                throw ProblemError.invalidKey("the biometric key and the device key must differ")
            }
            users.append(user)
            devices.append(
                DeviceRecord(
                    id: RecordID.random(), userId: user.id, clientId: app.clientId, publisher: app.publisher,
                    name: enrollment.device.name, model: enrollment.device.model, vendorId: enrollment.device.vendorId,
                    os: enrollment.device.os, fingerprint: DeviceFingerprint.of(enrollment.device),
                    deviceKey: deviceKey, deviceKeyThumbprint: deviceKey.thumbprint, biometricKey: biometricKey,
                    biometricKeyThumbprint: biometricKey.thumbprint, pinHash: pinHash, pinFailures: 0, pinLockedAt: nil,
                    createdAt: now, lastUsedAt: nil, revokedAt: nil))
        }
        try await store.insertEnrolledDevices(users: users, devices: devices)
        return devices.map(\.id)
    }
}
