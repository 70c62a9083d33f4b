import Foundation
import TouchstoneProtocol

/// OpenID CIBA: registered clients, requests with their decisions and polls, and the ping outbox. Every method is
/// atomic on its own.
package protocol CIBAStore: Sendable {
    /// Registers (or replaces) a client's CIBA mode.
    func saveCIBAClient(_ client: CIBAClientRecord) async throws
    func cibaClient(clientId: String) async throws -> CIBAClientRecord?

    /// In one transaction: stores a request, suppressed (answered but never delivered) when the user already has one
    /// pending from this client, is over `limits`' count in their window, or denied one of this client within their
    /// cool-down; a pending one is queued for push to the user's active devices of its publisher.
    /// - Returns: the stored status.
    func createCIBARequest(_ request: CIBARequestRecord, limits: ApprovalLimits) async throws -> ItemStatus
    func cibaRequest(id: String) async throws -> CIBARequestRecord?
    func cibaRequest(authRequestHash: String) async throws -> CIBARequestRecord?
    /// The pending, unexpired requests for the user's devices of `publisher`.
    func pendingCIBARequests(userId: String, publisher: String, now: Date) async throws -> [CIBARequestRecord]
    /// In one transaction: counts a poll of an undecided request at `now`. A poll sooner than the request's interval
    /// after its previous one adds 5 s to the interval; every poll becomes the previous one.
    /// - Returns: whether the poll came too soon (`slow_down`).
    func pollCIBARequest(id: String, at now: Date) async throws -> Bool
    /// In one transaction: the decider's steps (``DecisionCommit``), the decision on a pending, unexpired request,
    /// `ciba.decided` queued and, for a ping request of a ping client, its ping queued.
    func decideCIBARequest(id: String, status: ItemStatus, amr: [AuthenticationMethod], by commit: DecisionCommit)
        async throws -> DecisionCommit.Outcome
    /// In one transaction: marks an approved request exchanged and stores its session, for the first caller only and
    /// only while the approving device is active.
    func exchangeCIBARequest(id: String, session: SessionRecord, refreshTokenHash: String) async throws -> CIBAExchange

    /// The ping outbox. A claim returns only pings whose request has not expired; the others it deletes.
    var pingOutbox: any OutboxQueue<QueuedPing> { get }
}
