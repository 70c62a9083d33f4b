import Foundation
import Logging
import TouchstoneStorage

/// Writes audit events; a failure to audit is logged and never turns an answer into an error.
///
/// ⚠️ Never pass a PIN, password, assertion or token in `detail`.
struct Auditor: Sendable {
    package let store: any AuditStore
    package let clock: any WallClock
    package let logger: Logger

    package func record(
        _ event: AuditEventType, outcome: AuditOutcome, userId: String? = nil, deviceId: String? = nil,
        clientId: String? = nil, ip: String? = nil, detail: String? = nil
    ) async {
        let entry = self.event(
            event, outcome: outcome, userId: userId, deviceId: deviceId, clientId: clientId, ip: ip, detail: detail)
        do {
            try await store.audit(entry)
        } catch {
            logger.error("audit write failed", metadata: ["event": .string(event.rawValue), "error": .string("\(error)")])
        }
    }

    /// An audit event of the request being served (its id, user agent and actor), for a store write that records it
    /// in the same transaction as what it tells of.
    func event(
        _ event: AuditEventType, outcome: AuditOutcome, userId: String? = nil, deviceId: String? = nil,
        clientId: String? = nil, ip: String? = nil, detail: String? = nil
    ) -> AuditEvent {
        let request = RequestMetadata.current
        return AuditEvent(
            at: clock.now(), event: event, outcome: outcome, userId: userId, deviceId: deviceId, clientId: clientId,
            ip: ip, detail: detail, requestId: request?.requestId, userAgent: request?.userAgent,
            actor: request?.actor ?? (deviceId == nil ? .user : .device))
    }

    /// Runs `body` and records the code of the refusal it throws as `event` (and `ok` when `success` is set); a 503
    /// `temporarily_unavailable` is not recorded: nothing was decided.
    func recording<T: Sendable>(
        _ event: AuditEventType, userId: String? = nil, deviceId: String? = nil, clientId: String? = nil, ip: String,
        success: Bool = true, _ body: () async throws -> T
    ) async throws -> T {
        do {
            let result = try await body()
            if success {
                await record(event, outcome: .ok, userId: userId, deviceId: deviceId, clientId: clientId, ip: ip)
            }
            return result
        } catch let refusal as ProblemError where refusal.code != .temporarilyUnavailable {
            // A request turned away before it was considered (the hashing gate's 503) decided nothing: not audited.
            await record(event, outcome: .refused(refusal.code), userId: userId, deviceId: deviceId, clientId: clientId, ip: ip)
            throw refusal
        }
    }
}
