import Foundation
import SQLKit
import TouchstoneProtocol

extension SQLStore {
    package static let deviceColumns = """
        id, user_id, client_id, publisher, name, model, vendor_id, os, fingerprint, device_key, \
        device_key_thumbprint, biometric_key, biometric_key_thumbprint, pin_hash, pin_failures, pin_locked_at, \
        created_at, last_used_at, revoked_at, compromised, attestation, app_attest_key_id, app_attest_public_key, \
        app_attest_receipt, attested_build
        """

    package func device(id: String) async throws -> DeviceRecord? {
        try await provider.read { database in
            try await database.raw("SELECT \(unsafeRaw: Self.deviceColumns) FROM devices WHERE id = \(bind: id)")
                .first().map(Self.deviceRecord)
        }
    }

    package func devices(userId: String) async throws -> [DeviceRecord] {
        try await provider.read { database in
            try await database.raw(
                "SELECT \(unsafeRaw: Self.deviceColumns) FROM devices WHERE user_id = \(bind: userId) ORDER BY created_at, id"
            ).all().map(Self.deviceRecord)
        }
    }

    package func allDevices() async throws -> [DeviceRecord] {
        try await provider.read { database in
            try await database.raw("SELECT \(unsafeRaw: Self.deviceColumns) FROM devices ORDER BY created_at, id")
                .all().map(Self.deviceRecord)
        }
    }

    package func revokeDevice(id: String, reason: String, at: Date, notices: [NoticeDraft]) async throws -> Bool {
        try await provider.transaction { database in
            try await Self.revokeDevice(id: id, reason: reason, at: at, notices: notices, in: database)
        }
    }

    /// Revokes an active device, its sessions and the sessions it approved (provider sessions included), and leaves
    /// `notices` if it was active, inside the caller's transaction. Whatever a device approves is stored under a lock
    /// on its row (``lockActiveDevice(_:in:)``), which the first statement here takes too, so it comes wholly before
    /// this (and is ended here) or after it (and is refused).
    package static func revokeDevice(
        id: String, reason: String, at: Date, notices: [NoticeDraft] = [], in database: any SQLDatabase
    ) async throws -> Bool {
        let revoked = try await database.raw(
            """
            UPDATE devices SET revoked_at = \(bind: at.storedSeconds), revoked_reason = \(bind: reason)
            WHERE id = \(bind: id) AND revoked_at IS NULL RETURNING id
            """
        ).first() != nil
        if revoked {
            try await database.raw(
                """
                UPDATE sessions SET revoked_at = \(bind: at.storedSeconds), revoked_reason = \(bind: "device " + reason)
                WHERE (device_id = \(bind: id) OR approved_by = \(bind: id)) AND revoked_at IS NULL
                """
            ).run()
            try await endProviderSessions(approvedBy: id, at: at, in: database)
            try await insertNotices(notices, in: database)
        }
        return revoked
    }

    package func removeBiometricKey(deviceId: String) async throws -> Bool {
        try await provider.write { database in
            try await database.raw(
                """
                UPDATE devices SET biometric_key = NULL, biometric_key_thumbprint = NULL
                WHERE id = \(bind: deviceId) AND revoked_at IS NULL RETURNING id
                """
            ).first() != nil
        }
    }

    static func insertDevice(_ device: DeviceRecord, in database: any SQLDatabase) async throws {
        try await database.raw(
            "INSERT INTO devices (\(unsafeRaw: deviceColumns)) VALUES (\(binds: try deviceValues(device)))"
        ).run()
    }

    /// The values of ``deviceColumns`` for `device`, in that order.
    package static func deviceValues(_ device: DeviceRecord) throws -> [any Encodable & Sendable] {
        [
            device.id, device.userId, device.clientId, device.publisher, device.name, device.model, device.vendorId,
            device.os, device.fingerprint, try json(device.deviceKey.jwk), device.deviceKeyThumbprint,
            try device.biometricKey.map { try json($0.jwk) }, device.biometricKeyThumbprint, device.pinHash,
            device.pinFailures,
            device.pinLockedAt?.storedSeconds, device.createdAt.storedSeconds, device.lastUsedAt?.storedSeconds,
            device.revokedAt?.storedSeconds, device.compromised ? 1 : 0, device.attestation?.kind.rawValue,
            device.attestation?.appAttestKeyId, device.attestation?.appAttestPublicKey, device.attestation?.appAttestReceipt,
            try device.attestation?.build.map(json),
        ]
    }

    static func deviceRecord(_ row: any SQLRow) throws -> DeviceRecord {
        DeviceRecord(
            id: try row.string("id"), userId: try row.string("user_id"), clientId: try row.string("client_id"),
            publisher: try row.string("publisher"), name: try row.string("name"), model: try row.string("model"),
            vendorId: try row.string("vendor_id"), os: try row.string("os"), fingerprint: try row.string("fingerprint"),
            deviceKey: try storedKeys.value(of: try row.string("device_key")),
            deviceKeyThumbprint: try row.string("device_key_thumbprint"),
            biometricKey: try row.optionalString("biometric_key").map(storedKeys.value(of:)),
            biometricKeyThumbprint: try row.optionalString("biometric_key_thumbprint"),
            pinHash: try row.optionalString("pin_hash"), pinFailures: try row.int("pin_failures"),
            pinLockedAt: try row.optionalDate("pin_locked_at"), createdAt: try row.date("created_at"),
            lastUsedAt: try row.optionalDate("last_used_at"), revokedAt: try row.optionalDate("revoked_at"),
            compromised: try row.int("compromised") != 0, attestation: try attestation(row))
    }

    /// The stored attestation of a device row; `nil` when it enrolled without one.
    private static func attestation(_ row: any SQLRow) throws -> DeviceAttestation? {
        guard let kind = try row.optionalString("attestation").flatMap(DeviceAttestationKind.init(rawValue:)) else {
            return nil
        }
        return DeviceAttestation(
            kind: kind, appAttestKeyId: try row.optionalString("app_attest_key_id"),
            appAttestPublicKey: try row.optionalString("app_attest_public_key"),
            appAttestReceipt: try row.optionalString("app_attest_receipt"),
            build: try row.optionalString("attested_build").map { try fromJSON($0, as: AttestedBuild.self) })
    }
}
