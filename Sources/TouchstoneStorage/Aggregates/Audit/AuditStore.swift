import Foundation

/// The audit log. Every method is atomic on its own.
package protocol AuditStore: Sendable {
    func audit(_ event: AuditEvent) async throws
    /// Events at or after `since`, of one user or of all, oldest first.
    func auditEvents(since: Date?, userId: String?) async throws -> [AuditEvent]
    /// Up to `limit` events that `filter` keeps, newest first, from just before `position` (the last one of the page
    /// before) on.
    func auditEvents(_ filter: AuditFilter, before position: AuditPosition?, limit: Int) async throws -> [AuditEvent]
}

/// Which audit events a query keeps; `nil` members keep every event.
package struct AuditFilter: Sendable, Equatable {
    package var userId: String?
    package var type: AuditEventType?
    /// Inclusive.
    package var since: Date?
    /// Exclusive.
    package var until: Date?

    package init(userId: String? = nil, type: AuditEventType? = nil, since: Date? = nil, until: Date? = nil) {
        self.userId = userId
        self.type = type
        self.since = since
        self.until = until
    }
}

/// Where a stored event sits in the audit log's order (its time, then its id): a page's last event, from which the
/// next page goes on.
package struct AuditPosition: Sendable, Equatable {
    /// The event's time, in the stored whole milliseconds.
    package var milliseconds: Int64
    package var id: String

    package init(milliseconds: Int64, id: String) {
        self.milliseconds = milliseconds
        self.id = id
    }

    /// The position of an event read back from the store; `nil` for one never stored.
    package init?(of event: AuditEvent) {
        guard let id = event.id else { return nil }
        self.init(milliseconds: Int64((event.at.timeIntervalSince1970 * 1000).rounded()), id: id)
    }
}
