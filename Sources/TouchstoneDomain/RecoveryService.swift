import Foundation
import TouchstoneCrypto
import TouchstoneProtocol
import TouchstoneStorage

/// Recovery codes: the way in for a new device when no other device can approve it.
package struct RecoveryService: Sendable {
    package let environment: ServiceEnvironment

    /// `POST /v1/account/recovery-codes`: ten new codes, which replace every earlier one; only their digests are kept.
    /// - Throws: 403 `step_up_required` without a privileged token.
    /// - ⚠️ The codes are shown this once: the answer must not be cached (`Cache-Control: no-store`).
    package func createCodes(by identity: AccessIdentity, ip: String) async throws -> RecoveryCodes {
        try await environment.auditor.recording(
            "recovery_codes.create", userId: identity.userId, deviceId: identity.deviceId,
            clientId: identity.claims.aud, ip: ip
        ) {
            try StepUpService.requirePrivilege(identity)
            let codes = RecoveryCode.generateSet()
            let now = environment.clock.now()
            let actingDevice = try await environment.actingDevice(of: identity)
            try await environment.store.replaceRecoveryCodes(
                userId: identity.userId,
                hashes: codes.map { RecoveryCode.digest(RecoveryCode.normalized($0) ?? $0, userId: identity.userId) },
                at: now,
                notice: SecurityNotices.draft(
                    .recoveryCodesCreated, userId: identity.userId, device: actingDevice,
                    actingDevice: identity.deviceId, ip: ip, at: now))
            return RecoveryCodes(codes: codes)
        }
    }

    /// The digest of `code` if it is one of the user's unused recovery codes; each stored digest is compared in
    /// constant time, all of them every time.
    func unusedCode(_ code: String, of userId: String) async throws -> String? {
        let digest = RecoveryCode.digest(code, userId: userId)
        var found = false
        for stored in try await environment.store.unusedRecoveryCodeHashes(userId: userId) {
            found = SecretDigest.constantTimeEquals(stored, digest) || found
        }
        return found ? digest : nil
    }

    package init(environment: ServiceEnvironment) {
        self.environment = environment
    }
}
