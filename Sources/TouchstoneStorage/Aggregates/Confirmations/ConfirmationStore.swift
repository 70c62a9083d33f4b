import TouchstoneProtocol
import Foundation

/// Transaction confirmations and their decisions. Every method is atomic on its own.
package protocol ConfirmationStore: Sendable {
    func createConfirmation(_ confirmation: ConfirmationRecord) async throws
    func confirmation(id: String) async throws -> ConfirmationRecord?
    func pendingConfirmations(userId: String, publisher: String, now: Date) async throws -> [ConfirmationRecord]
    /// In one transaction: the decider's steps (``DecisionCommit``), then the decision on a pending, unexpired
    /// confirmation, keeping only the digest of the device's decision token, and `confirmation.decided` queued.
    func decideConfirmation(
        id: String, status: ItemStatus, amr: [AuthenticationMethod], decisionDigest: String, by commit: DecisionCommit
    ) async throws -> DecisionCommit.Outcome
}
