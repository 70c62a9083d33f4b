import TouchstoneProtocol
import Foundation

/// A browser's request to log in, approved from an enrolled device by number matching.
package struct WebLoginRecord: Sendable, Equatable {
    package var id: String
    package var userId: String?
    package var clientId: String
    package var publisher: String
    package var number: Int
    package var numbers: [Int]
    package var pollSecretHash: String
    package var challenge: String
    package var browser: String
    package var ip: String
    package var createdAt: Date
    package var expiresAt: Date
    package var status: ItemStatus
    package var decidedAt: Date?
    package var deviceId: String?
    package var amr: [AuthenticationMethod]?
    /// The sign-in request (`GET /oauth2/sign-in/{id}`) that carries payment details, when started for one.
    package var signInRequestId: String?
    /// That request's `authorization_details` as the client sent them: what the device shows.
    package var authorizationDetails: String?
    /// The transaction hash a decision must carry, with payment details.
    package var txn: String?

    package init(
        id: String,
        userId: String? = nil,
        clientId: String,
        publisher: String,
        number: Int,
        numbers: [Int],
        pollSecretHash: String,
        challenge: String,
        browser: String,
        ip: String,
        createdAt: Date,
        expiresAt: Date,
        status: ItemStatus,
        decidedAt: Date? = nil,
        deviceId: String? = nil,
        amr: [AuthenticationMethod]? = nil,
        signInRequestId: String? = nil,
        authorizationDetails: String? = nil,
        txn: String? = nil
    ) {
        self.id = id
        self.userId = userId
        self.clientId = clientId
        self.publisher = publisher
        self.number = number
        self.numbers = numbers
        self.pollSecretHash = pollSecretHash
        self.challenge = challenge
        self.browser = browser
        self.ip = ip
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.status = status
        self.decidedAt = decidedAt
        self.deviceId = deviceId
        self.amr = amr
        self.signInRequestId = signInRequestId
        self.authorizationDetails = authorizationDetails
        self.txn = txn
    }
}
