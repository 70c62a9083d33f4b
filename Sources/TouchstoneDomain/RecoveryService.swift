import Foundation
import TouchstoneCrypto
import TouchstoneProtocol
import TouchstoneStorage

/// Recovery codes: the way in for a new device when no other device can approve it.
package struct RecoveryService: Sendable {
    typealias Store = RecoveryStore & DeviceStore

    let store: any Store
    let clock: any WallClock
    /// Where the codes come from.
    let random: any RandomSource
    let auditor: Auditor

    /// `POST /v1/account/recovery-codes`: ten new codes, which replace every earlier one; only their digests are kept.
    /// - Throws: 403 `step_up_required` without a privileged token.
    /// - ⚠️ The codes are shown this once: the answer must not be cached (`Cache-Control: no-store`).
    package func createCodes(by identity: AccessIdentity, ip: String) async throws -> RecoveryCodes {
        try await auditor.recording(
            .recoveryCodesCreate, userId: identity.userId, deviceId: identity.deviceId,
            clientId: identity.claims.aud, ip: ip
        ) {
            try StepUpService.requirePrivilege(identity)
            var generator = Generator(source: random)
            let codes = RecoveryCode.generateSet(using: &generator)
            let now = clock.now()
            let actingDevice = try await store.actingDevice(of: identity)
            try await store.replaceRecoveryCodes(
                userId: identity.userId,
                hashes: codes.map { RecoveryCode.digest(RecoveryCode.normalized($0) ?? $0, userId: identity.userId) },
                at: now,
                notice: SecurityNotices.draft(
                    .recoveryCodesCreated, userId: identity.userId, device: actingDevice,
                    actingDevice: identity.deviceId, ip: ip, at: now))
            return RecoveryCodes(codes: codes)
        }
    }


}
