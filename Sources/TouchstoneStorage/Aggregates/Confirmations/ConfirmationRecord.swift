import TouchstoneProtocol
import Foundation

/// A transaction a relying service asks the user to confirm.
package struct ConfirmationRecord: Sendable, Equatable {
    package var id: String
    package var clientId: String
    package var publisher: String
    /// `nil` when the username is unknown to the key's publisher: never delivered.
    package var userId: String?
    package var text: String
    package var amount: String
    package var currency: String
    package var payee: String
    package var txn: String
    package var challenge: String
    package var createdAt: Date
    package var expiresAt: Date
    package var status: ItemStatus
    package var decidedAt: Date?
    package var deviceId: String?
    package var amr: [AuthenticationMethod]?

    package init(
        id: String,
        clientId: String,
        publisher: String,
        userId: String? = nil,
        text: String,
        amount: String,
        currency: String,
        payee: String,
        txn: String,
        challenge: String,
        createdAt: Date,
        expiresAt: Date,
        status: ItemStatus,
        decidedAt: Date? = nil,
        deviceId: String? = nil,
        amr: [AuthenticationMethod]? = nil
    ) {
        self.id = id
        self.clientId = clientId
        self.publisher = publisher
        self.userId = userId
        self.text = text
        self.amount = amount
        self.currency = currency
        self.payee = payee
        self.txn = txn
        self.challenge = challenge
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.status = status
        self.decidedAt = decidedAt
        self.deviceId = deviceId
        self.amr = amr
    }
}
