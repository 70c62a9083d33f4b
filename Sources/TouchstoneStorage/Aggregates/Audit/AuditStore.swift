import Foundation

/// The audit log. Every method is atomic on its own.
package protocol AuditStore: Sendable {
    func audit(_ event: AuditEvent) async throws
    func auditEvents(since: Date?, userId: String?) async throws -> [AuditEvent]
}
