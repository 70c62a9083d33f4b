import TouchstoneProtocol
import Foundation

/// Web logins waiting for approval on a device, and their delivery. Every method is atomic on its own.
package protocol WebLoginStore: Sendable {
    /// In one transaction: stores a web login, suppressed (answered but never delivered) when the user already has
    /// one pending, is over `limits`' count in their window, or denied one within their cool-down.
    /// - Returns: the stored status.
    func createWebLogin(_ webLogin: WebLoginRecord, limits: ApprovalLimits) async throws -> ItemStatus
    func webLogin(id: String) async throws -> WebLoginRecord?
    func pendingWebLogins(userId: String, publisher: String, now: Date) async throws -> [WebLoginRecord]
    /// In one transaction: the decider's steps (``DecisionCommit``), then the decision on a pending, unexpired web login.
    func decideWebLogin(id: String, status: ItemStatus, amr: [AuthenticationMethod], by commit: DecisionCommit) async throws
        -> DecisionCommit.Outcome
    /// In one transaction: stores an approved web login's session (`approvedBy` its approving device), for the first
    /// caller only and only while that device is active.
    func deliverWebLogin(id: String, session: SessionRecord, refreshTokenHash: String) async throws -> WebLoginDelivery
    /// The approved web login, started for the sign-in request `signInRequestId`, whose delivered session is
    /// `sessionId`: what a device approved for that request's payment details.
    func webLoginApproval(signInRequestId: String, sessionId: String) async throws -> WebLoginRecord?
}
