import TouchstoneProtocol
import TouchstoneStorage

/// What an admin token allows: `read` looks, `write` also changes.
package enum AdminScope: String, Sendable, Codable, CaseIterable {
    case read, write
}

/// Who asks an admin service for something: the administrator at the command line, or a caller of the admin API with
/// an admin token (``AdminTokenService/authenticate(bearer:ip:)``). Every change is audited as done by its ``actor``.
package struct AdminCaller: Sendable, Equatable {
    package var actor: AuditActor
    /// The address audit events record: the API caller's, or `admin` at the command line.
    package var ip: String
    package var scope: AdminScope

    package init(actor: AuditActor, ip: String, scope: AdminScope) {
        self.actor = actor
        self.ip = ip
        self.scope = scope
    }

    /// `touchstone admin`, on the database: it may do anything.
    package static let commandLine = AdminCaller(actor: .admin, ip: "admin", scope: .write)

    /// Refuses a caller whose scope does not cover `needed`.
    /// - Throws: ``ProblemCode/insufficientScope`` for a `read` token asking for a change.
    package func require(_ needed: AdminScope) throws {
        guard scope == .write || needed == .read else {
            throw ProblemError(.insufficientScope, detail: "This admin token may only read; a change needs scope write.")
        }
    }
}

/// Records what administrators do. Unlike ``Auditor``, a failure to record is thrown: an administrator's change that
/// cannot be audited is reported as failed (see ``AdminServices``).
struct AdminAudit: Sendable {
    let store: any AuditStore
    let clock: any WallClock

    /// Records `event` as done by `caller`, with the request's id and user agent when the admin API serves one.
    /// ⚠️ Never pass a secret (a token, a key, a client secret) in `detail`.
    func record(
        _ event: AuditEventType, by caller: AdminCaller, userId: String? = nil, deviceId: String? = nil,
        clientId: String? = nil, detail: String? = nil
    ) async throws {
        let request = RequestMetadata.current
        try await store.audit(
            AuditEvent(
                at: clock.now(), event: event, outcome: .ok, userId: userId, deviceId: deviceId, clientId: clientId,
                ip: caller.ip, detail: detail, requestId: request?.requestId, userAgent: request?.userAgent,
                actor: caller.actor))
    }
}
