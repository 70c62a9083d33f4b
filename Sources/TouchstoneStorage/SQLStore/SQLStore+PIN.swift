import Foundation
import SQLKit
import TouchstoneProtocol

extension SQLStore {
    /// Applies a checked PIN inside the caller's transaction: one conditional statement that resets the count, or counts
    /// the failure and locks at the limit (queuing `pin.locked`), only while the device is active, unlocked and holds
    /// the checked hash. The statement locks the device's row until commit, so a concurrent revocation comes entirely
    /// before or after.
    package static func apply(_ attempt: PINAttempt, deviceId: String, at: Date, in database: any SQLDatabase) async throws
        -> PINOutcome
    {
        let unchanged: SQLQueryString = """
            id = \(bind: deviceId) AND revoked_at IS NULL AND pin_locked_at IS NULL AND pin_hash = \(bind: attempt.pinHash)
            """
        if attempt.isRight {
            if try await database.raw("UPDATE devices SET pin_failures = 0 WHERE \(unchanged) RETURNING id").first() != nil {
                return .accepted
            }
        } else if let row = try await database.raw(
            """
            UPDATE devices SET pin_failures = pin_failures + 1,
                pin_locked_at = CASE WHEN pin_failures + 1 >= \(bind: attempt.limit) THEN \(bind: at.storedSeconds) ELSE NULL END
            WHERE \(unchanged)
            RETURNING pin_failures, pin_locked_at, user_id, client_id
            """
        ).first() {
            guard try row.optionalDate("pin_locked_at") == nil else {
                let data = WebhookEventData(
                    userId: try row.string("user_id"), deviceId: deviceId, clientId: try row.string("client_id"))
                try await queueWebhookEvent(.pinLocked, data, at: at, in: database)
                return .locked(now: true)
            }
            return .wrong(attemptsRemaining: max(0, attempt.limit - (try row.int("pin_failures"))))
        }
        let device = try await database.raw(
            "SELECT revoked_at, pin_locked_at FROM devices WHERE id = \(bind: deviceId)"
        ).first()
        if try device?.optionalDate("revoked_at") != nil || device == nil { return .deviceRevoked }
        if try device?.optionalDate("pin_locked_at") != nil { return .locked(now: false) }
        return .changed
    }

    /// Locks an active device's row until commit; `false` when it is revoked or unknown. A revocation locks the same row
    /// first, so what the device approved and is stored under this lock comes wholly before or after it.
    static func lockActiveDevice(_ deviceId: String, in database: any SQLDatabase) async throws -> Bool {
        try await database.raw(
            "UPDATE devices SET id = id WHERE id = \(bind: deviceId) AND revoked_at IS NULL RETURNING id"
        ).first() != nil
    }

    /// Whether the device is revoked (or gone), after ``hold(_:at:in:)`` refused: otherwise its key was removed.
    static func isRevoked(_ deviceId: String, in database: any SQLDatabase) async throws -> Bool {
        let row = try await database.raw("SELECT revoked_at FROM devices WHERE id = \(bind: deviceId)").first()
        return try row?.optionalDate("revoked_at") != nil || row == nil
    }

    /// Locks the user's row until commit, provided the password hash is still `passwordHash`: what a password
    /// allowed commits only if the password was not changed meanwhile (a change waits for it, or it sees the change).
    static func lockUnchangedPassword(userId: String, passwordHash: String, in database: any SQLDatabase) async throws
        -> Bool
    {
        try await database.raw(
            """
            UPDATE users SET id = id WHERE id = \(bind: userId) AND password_hash = \(bind: passwordHash) RETURNING id
            """
        ).first() != nil
    }
}

extension SQLStore {
    /// The signing device's steps, inside the caller's transaction, for logins and decisions alike: applies its PIN,
    /// then marks the device used provided it is still active and holds the signing key — which locks its row until
    /// commit. `nil` when the action may be written.
    static func hold(_ signer: SigningDevice, at now: Date, in database: any SQLDatabase) async throws
        -> SigningDevice.Refusal?
    {
        if let pin = signer.pin {
            let outcome = try await apply(pin, deviceId: signer.deviceId, at: now, in: database)
            guard outcome == .accepted else { return .pin(outcome) }
        }
        let held = try await database.raw(
            """
            UPDATE devices SET last_used_at = \(bind: now.storedSeconds) WHERE \(holdsKey(signer)) RETURNING id
            """
        ).first() != nil
        guard held else { return try await isRevoked(signer.deviceId, in: database) ? .deviceRevoked : .keyRemoved }
        return nil
    }

    /// The one condition a signing device's row must meet when the action is written: active, holding the key that
    /// signed.
    static func holdsKey(_ signer: SigningDevice) -> SQLQueryString {
        let keyColumn: SQLQueryString = signer.signedWithBiometricKey ? "biometric_key_thumbprint" : "device_key_thumbprint"
        return "id = \(bind: signer.deviceId) AND revoked_at IS NULL AND \(keyColumn) = \(bind: signer.keyThumbprint)"
    }
}
