import Foundation
import TouchstoneProtocol

/// A backchannel authentication request (OpenID CIBA): what the client asked of which user, the device's decision, and
/// the poll timing.
package struct CIBARequestRecord: Sendable, Equatable {
    /// The inbox item's id (the `auth_req_id` never reaches a device).
    package var id: String
    /// SHA-256 of the `auth_req_id`.
    package var authRequestHash: String
    package var clientId: String
    package var publisher: String
    /// `nil` for an unknown user: answered, never delivered.
    package var userId: String?
    package var scope: String
    package var bindingMessage: String?
    /// The `authorization_details` text as sent.
    package var authorizationDetails: String?
    package var txn: String
    package var challenge: String
    package var createdAt: Date
    package var expiresAt: Date
    /// Seconds a client waits between polls; grows by 5 with each `slow_down`.
    package var interval: Int
    package var status: ItemStatus
    package var decidedAt: Date?
    package var deviceId: String?
    package var amr: [AuthenticationMethod]?
    /// Whether the tokens were issued.
    package var exchanged: Bool
    /// A ping client's notification: the `auth_req_id` and the client's bearer token it carries.
    package var ping: Ping?

    package struct Ping: Sendable, Equatable {
        package var authRequestId: String
        package var token: String

        package init(authRequestId: String, token: String) {
            self.authRequestId = authRequestId
            self.token = token
        }
    }

    package init(
        id: String, authRequestHash: String, clientId: String, publisher: String, userId: String?, scope: String,
        bindingMessage: String?, authorizationDetails: String?, txn: String, challenge: String, createdAt: Date,
        expiresAt: Date, interval: Int, status: ItemStatus, decidedAt: Date? = nil, deviceId: String? = nil,
        amr: [AuthenticationMethod]? = nil, exchanged: Bool = false, ping: Ping? = nil
    ) {
        self.id = id
        self.authRequestHash = authRequestHash
        self.clientId = clientId
        self.publisher = publisher
        self.userId = userId
        self.scope = scope
        self.bindingMessage = bindingMessage
        self.authorizationDetails = authorizationDetails
        self.txn = txn
        self.challenge = challenge
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.interval = interval
        self.status = status
        self.decidedAt = decidedAt
        self.deviceId = deviceId
        self.amr = amr
        self.exchanged = exchanged
        self.ping = ping
    }
}
