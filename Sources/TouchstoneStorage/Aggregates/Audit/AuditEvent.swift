import Foundation

/// One audited event.
public struct AuditEvent: Sendable, Equatable {
    /// The stored row's id (time-ordered), once it has been stored; `nil` for an event not yet written.
    public var id: String?
    public var at: Date
    public var event: AuditEventType
    public var outcome: AuditOutcome
    public var userId: String?
    public var deviceId: String?
    public var clientId: String?
    public var ip: String?
    public var detail: String?
    /// The request's `X-Request-Id`, as its log lines carry it.
    public var requestId: String?
    /// The request's `User-Agent`.
    public var userAgent: String?
    /// Who acted; `nil` in events written before actors were recorded.
    public var actor: AuditActor?

    package init(
        id: String? = nil,
        at: Date,
        event: AuditEventType,
        outcome: AuditOutcome,
        userId: String? = nil,
        deviceId: String? = nil,
        clientId: String?,
        ip: String?,
        detail: String?,
        requestId: String? = nil,
        userAgent: String? = nil,
        actor: AuditActor? = nil
    ) {
        self.id = id
        self.at = at
        self.event = event
        self.outcome = outcome
        self.userId = userId
        self.deviceId = deviceId
        self.clientId = clientId
        self.ip = ip
        self.detail = detail
        self.requestId = requestId
        self.userAgent = userAgent
        self.actor = actor
    }
}
