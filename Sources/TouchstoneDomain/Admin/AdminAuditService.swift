import Foundation
import TouchstoneProtocol
import TouchstoneStorage

/// The audit log, for administrators: the admin API's query, a page at a time, and `admin audit`'s listing.
package struct AdminAuditService: Sendable {
    typealias Store = AuditStore & UserStore

    let store: any Store

    /// What an audit cursor pages.
    private static let cursorKind = "audit"

    /// Events newest first, a page at a time.
    /// - Parameters:
    ///   - userId, type: only the events of this user, of this type.
    ///   - since: only events at or after this time; `until`: only those before this one.
    ///   - limit: 1 to 100; 50 when `nil`.
    ///   - cursor: the `next` of the page before.
    /// - Throws: `invalid_request` for a limit out of range or a cursor this server did not give.
    package func events(
        userId: String?, type: String?, since: Date?, until: Date?, limit: Int?, cursor: String?
    ) async throws -> AdminPage<AdminAuditEvent> {
        let size = try PageCursor.pageSize(limit)
        let position = try PageCursor.decode(cursor, kind: Self.cursorKind, count: 2).map { keys in
            guard let milliseconds = Int64(keys[0]) else {
                throw ProblemError.invalidRequest("cursor is not one this server gave for this list")
            }
            return AuditPosition(milliseconds: milliseconds, id: keys[1])
        }
        let filter = AuditFilter(userId: userId, type: type.map(AuditEventType.init), since: since, until: until)
        let rows = try await store.auditEvents(filter, before: position, limit: size + 1)
        let page = try PageCursor.page(rows, size: size) { event in
            guard let position = AuditPosition(of: event) else {
                throw ProblemError(.internalError, detail: "an audit event read back without its id")
            }
            return try PageCursor.encode(Self.cursorKind, [String(position.milliseconds), position.id])
        }
        return AdminPage(items: try page.rows.map(AdminAuditEvent.init), next: page.next)
    }

    /// Events at or after `since`, of the user named `username` or of all, oldest first (`admin audit`).
    /// - Throws: `not_found` for an unknown username.
    package func log(since: Date?, username: String?) async throws -> [AuditEvent] {
        var userId: String?
        if let username {
            guard let user = try await store.user(username: username) else {
                throw ProblemError(.notFound, detail: "no user \(username)")
            }
            userId = user.id
        }
        return try await store.auditEvents(since: since, userId: userId)
    }
}

/// An audit event as the admin API shows it (`GET /admin/v1/audit` pages them): never its `detail`, the one
/// free-text member.
package struct AdminAuditEvent: AdminPageItem {
    package static let listMember = "events"

    package var id: String
    package var at: Date
    package var type: String
    package var outcome: String
    package var actor: AuditActor
    package var userId: String?
    package var deviceId: String?
    package var clientId: String?
    package var ip: String?
    package var userAgent: String?
    package var requestId: String?

    /// An event read back from the store. One written before actors were recorded gets the actor the ``Auditor``
    /// would give it: the device when it names one, otherwise the user.
    init(_ event: AuditEvent) throws {
        guard let id = event.id else {
            throw ProblemError(.internalError, detail: "an audit event read back without its id")
        }
        self.id = id
        at = event.at
        type = event.event.rawValue
        outcome = event.outcome.rawValue
        actor = event.actor ?? (event.deviceId == nil ? .user : .device)
        userId = event.userId
        deviceId = event.deviceId
        clientId = event.clientId
        ip = event.ip
        userAgent = event.userAgent
        requestId = event.requestId
    }

    private enum CodingKeys: String, CodingKey {
        case id, at, type, outcome, actor, userId, deviceId, clientId, ip, userAgent, requestId
    }

    /// Every member, absent ones as null.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(at, forKey: .at)
        try container.encode(type, forKey: .type)
        try container.encode(outcome, forKey: .outcome)
        try container.encode(actor, forKey: .actor)
        try container.encode(userId, forKey: .userId)
        try container.encode(deviceId, forKey: .deviceId)
        try container.encode(clientId, forKey: .clientId)
        try container.encode(ip, forKey: .ip)
        try container.encode(userAgent, forKey: .userAgent)
        try container.encode(requestId, forKey: .requestId)
    }
}
