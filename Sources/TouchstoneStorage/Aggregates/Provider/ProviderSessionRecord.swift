import TouchstoneProtocol
import Foundation

/// The provider session: the browser's sign-in at the provider, named by its one cookie.
package struct ProviderSessionRecord: Sendable, Equatable {
    /// The `sid` of ID tokens.
    package var id: String
    package var userId: String
    package var amr: [AuthenticationMethod]
    package var acr: AssuranceLevel
    package var authTime: Date
    package var createdAt: Date
    /// At most 12 hours after the sign-in.
    package var expiresAt: Date
    package var endedAt: Date?
    /// The device whose approval signed the browser in; the session ends with it.
    package var approvedBy: String?

    package init(
        id: String, userId: String, amr: [AuthenticationMethod], acr: AssuranceLevel, authTime: Date, createdAt: Date, expiresAt: Date,
        endedAt: Date? = nil, approvedBy: String? = nil
    ) {
        self.id = id
        self.userId = userId
        self.amr = amr
        self.acr = acr
        self.authTime = authTime
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.endedAt = endedAt
        self.approvedBy = approvedBy
    }
}
