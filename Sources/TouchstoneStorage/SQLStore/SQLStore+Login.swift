import Foundation
import SQLKit

extension SQLStore {
    package func commitLogin(_ login: LoginCommit) async throws -> LoginCommit.Outcome {
        try await provider.transaction { database in
            // Each refusal below returns instead of throwing, so that what was written before it commits: the challenge
            // is consumed by the first verified assertion whatever the outcome, which also spends the assertion.
            guard
                try await Self.consumeChallenge(
                    login.challenge, subject: login.deviceId, purpose: login.purpose, now: login.now, in: database)
            else { return .challengeInvalid }
            if login.reportedCompromised {
                try await database.raw("UPDATE devices SET compromised = 1 WHERE id = \(bind: login.deviceId)").run()
            }
            switch login.effect {
            case .none:
                return .committed
            case .revokeDevice(let reason, let notices):
                _ = try await Self.revokeDevice(
                    id: login.deviceId, reason: reason, at: login.now, notices: notices, in: database)
                return .committed
            case .issue(let session, let refreshTokenHash, let biometric, let thumbprint, let pin, let audit):
                if let pin {
                    let outcome = try await Self.apply(pin, deviceId: login.deviceId, at: login.now, in: database)
                    guard outcome == .accepted else { return .pin(outcome) }
                }
                // The device was read before the signature was checked: it must still be active and still hold the key.
                let keyColumn: SQLQueryString = biometric ? "biometric_key_thumbprint" : "device_key_thumbprint"
                let touched = try await database.raw(
                    """
                    UPDATE devices SET last_used_at = \(bind: login.now.storedSeconds)
                    WHERE id = \(bind: login.deviceId) AND revoked_at IS NULL AND \(keyColumn) = \(bind: thumbprint)
                    RETURNING id
                    """
                ).first() != nil
                guard touched else {
                    return try await Self.isRevoked(login.deviceId, in: database) ? .deviceRevoked : .keyRemoved
                }
                try await Self.insertSession(session, refreshTokenHash: refreshTokenHash, in: database)
                try await Self.insertAudit(audit, in: database)
                return .committed
            }
        }
    }
}
