import TouchstoneProtocol
import Foundation

/// A session: the family of its refresh tokens.
package struct SessionRecord: Sendable, Equatable {
    package var id: String
    package var userId: String
    package var deviceId: String?
    package var clientId: String
    package var amr: [AuthenticationMethod]
    package var acr: AssuranceLevel
    package var authTime: Date
    package var lastActivityAt: Date
    package var createdAt: Date
    package var revokedAt: Date?
    /// The device whose approval made this session (web login), which it does not outlive.
    package var approvedBy: String?
    /// The scope granted to an OpenID Connect client; `nil` for the v1 API's sessions.
    package var scope: String?
    /// The provider session this OpenID Connect session was issued through; it ends with it.
    package var providerSessionId: String?
    /// The address that created the session; `nil` for sessions stored before it was kept.
    package var ip: String?
    /// The DPoP key (RFC 7638 thumbprint) a public client's refresh tokens are bound to: refreshed only with its proof.
    package var dpopJKT: String?

    package init(
        id: String,
        userId: String,
        deviceId: String? = nil,
        clientId: String,
        amr: [AuthenticationMethod],
        acr: AssuranceLevel,
        authTime: Date,
        lastActivityAt: Date,
        createdAt: Date,
        revokedAt: Date? = nil,
        approvedBy: String? = nil,
        scope: String? = nil,
        providerSessionId: String? = nil,
        ip: String? = nil,
        dpopJKT: String? = nil
    ) {
        self.id = id
        self.userId = userId
        self.deviceId = deviceId
        self.clientId = clientId
        self.amr = amr
        self.acr = acr
        self.authTime = authTime
        self.lastActivityAt = lastActivityAt
        self.createdAt = createdAt
        self.revokedAt = revokedAt
        self.approvedBy = approvedBy
        self.scope = scope
        self.providerSessionId = providerSessionId
        self.ip = ip
        self.dpopJKT = dpopJKT
    }
}
