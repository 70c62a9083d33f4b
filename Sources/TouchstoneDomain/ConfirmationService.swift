import Foundation
import TouchstoneCrypto
import TouchstoneProtocol
import TouchstoneStorage

/// Transaction confirmation (PSD2 dynamic linking): a relying service asks, the user's device shows exactly the
/// text, amount and payee, and a signed decision commits to their hash.
package struct ConfirmationService: Sendable {
    typealias Store = UserStore & ConfirmationStore

    let store: any Store
    let clock: any WallClock
    let random: any RandomSource
    let signer: TokenSigner
    /// The `iss` of receipts.
    let issuer: String
    let auditor: Auditor
    let decisions: DecisionService

    static let lifetimes = 30...600
    /// The most code points of shown text (a confirmation's `text`, a CIBA binding message) and of a payee.
    static let longestText = 200
    static let longestPayee = 100

    /// `POST /v1/confirmations`: unknown users get the same answer, and nothing is ever delivered for them.
    package func create(_ request: ConfirmationRequest, by app: AuthenticatedApp, ip: String) async throws -> ConfirmationCreated {
        try Self.check(request)
        let now = clock.now()
        let user = try await store.user(username: request.username)
        let confirmation = ConfirmationRecord(
            id: random.recordID(), clientId: app.clientId, publisher: app.publisher, userId: user?.id,
            text: request.text, amount: request.amount, currency: request.currency, payee: request.payee,
            txn: TransactionHash.of(
                text: request.text, amount: request.amount, currency: request.currency, payee: request.payee),
            challenge: random.token(), createdAt: now,
            expiresAt: now + TimeInterval(request.expiresInSeconds ?? 300), status: .pending)
        try await store.createConfirmation(confirmation)
        await auditor.record(
            .confirmationCreate, outcome: user == nil ? .unknownUser : .ok, userId: user?.id,
            clientId: app.clientId, ip: ip, detail: confirmation.id)
        return ConfirmationCreated(confirmationId: confirmation.id, status: .pending, expiresAt: confirmation.expiresAt)
    }

    /// `GET /v1/confirmations/{id}` for a key of the confirmation's publisher.
    package func state(_ id: String, for app: AuthenticatedApp) async throws -> ConfirmationState {
        let confirmation = try await visible(id, to: app)
        var status = DecisionStatus(rawValue: confirmation.status == .suppressed ? "pending" : confirmation.status.rawValue)
        if status == .pending, confirmation.expiresAt <= clock.now() { status = .expired }
        return ConfirmationState(
            confirmationId: confirmation.id, status: status, decidedAt: confirmation.decidedAt,
            deviceId: confirmation.deviceId, amr: confirmation.amr, txn: confirmation.txn,
            decision: try await receipt(of: confirmation))
    }

    /// The server's signed statement of a decided confirmation, which its relying service can keep and check with the
    /// JWKS; `nil` while undecided. The device's own decision token is never kept (it may carry the PIN).
    private func receipt(of confirmation: ConfirmationRecord) async throws -> String? {
        guard confirmation.status == .approved || confirmation.status == .denied,
            let userId = confirmation.userId, let decidedAt = confirmation.decidedAt
        else { return nil }
        return try await signer.sign(
            ConfirmationReceipt(
                iss: issuer, aud: confirmation.clientId, sub: userId, cid: confirmation.id,
                txn: confirmation.txn, decision: confirmation.status == .approved ? "approve" : "deny",
                amr: confirmation.amr ?? [], did: confirmation.deviceId, iat: Int64(decidedAt.timeIntervalSince1970)),
            type: ConfirmationReceipt.type)
    }

    /// `POST /v1/confirmations/{id}/decision`.
    package func decide(_ id: String, assertion: String, ip: String) async throws -> DecisionRecorded {
        guard let confirmation = try await store.confirmation(id: id) else {
            throw ProblemError(.notFound, detail: "No such confirmation.")
        }
        return try await auditor.recording(
            .confirmationDecide, userId: confirmation.userId, clientId: confirmation.clientId, ip: ip
        ) {
            let target = DecisionTarget(
                id: confirmation.id, challenge: confirmation.challenge, expiresAt: confirmation.expiresAt,
                isDecided: confirmation.status == .approved || confirmation.status == .denied,
                isRecipient: DecisionService.reaches(userId: confirmation.userId, publisher: confirmation.publisher),
                txn: confirmation.txn, policy: .asking(clientId: confirmation.clientId))
            let decision = try await decisions.verify(assertion, for: target)
            let status: ItemStatus = decision.approves ? .approved : .denied
            try decisions.settle(
                try await store.decideConfirmation(
                    id: id, status: status, amr: decision.amr, decisionDigest: decision.digest, by: decision.commit))
            return DecisionRecorded(status: DecisionStatus(rawValue: status.rawValue))
        }
    }

    private func visible(_ id: String, to app: AuthenticatedApp) async throws -> ConfirmationRecord {
        guard let confirmation = try await store.confirmation(id: id), confirmation.publisher == app.publisher
        else { throw ProblemError(.notFound, detail: "No such confirmation.") }
        return confirmation
    }

    /// The input rules: what is hashed is exactly what is shown.
    package static func check(_ request: ConfirmationRequest) throws {
        try checkShown(request.text, name: "text", longest: longestText)
        try checkShown(request.payee, name: "payee", longest: longestPayee)
        guard isAmount(request.amount) else {
            throw ProblemError.invalidRequest("amount must look like 120 or 120.50 (up to 4 decimals, no sign)")
        }
        guard isCurrency(request.currency) else {
            throw ProblemError.invalidRequest("currency must be three capital letters (ISO 4217)")
        }
        if let seconds = request.expiresInSeconds, !lifetimes.contains(seconds) {
            throw ProblemError.invalidRequest("expiresInSeconds must be 30 to 600")
        }
    }

    /// 1…`longest` code points under ``TextRules`` for shown text: NFC, nothing hidden, a letter or digit.
    static func checkShown(_ value: String, name: String, longest: Int) throws {
        try TextRules.check(value, field: name, length: 1...longest, use: .shown)
    }

    /// `^[A-Z]{3}$`
    static func isCurrency(_ currency: String) -> Bool {
        currency.utf8.count == 3 && currency.utf8.allSatisfy { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }
    }

    /// `^(0|[1-9][0-9]*)(\.[0-9]{1,4})?$`
    static func isAmount(_ amount: String) -> Bool {
        let parts = amount.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let isDigits = { (part: Substring) in !part.isEmpty && part.utf8.allSatisfy { $0 >= 48 && $0 <= 57 } }
        guard let whole = parts.first, isDigits(whole), whole == "0" || whole.first != "0" else { return false }
        guard parts.count == 2 else { return true }
        return isDigits(parts[1]) && parts[1].count <= 4
    }

}
