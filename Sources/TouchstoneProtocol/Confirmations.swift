import Foundation

/// `POST /v1/confirmations` body: what the user's device shows, exactly.
public struct ConfirmationRequest: Codable, Sendable {
    public var username: String
    public var text: String
    public var amount: String
    public var currency: String
    public var payee: String
    public var expiresInSeconds: Int?

    public init(username: String, text: String, amount: String, currency: String, payee: String, expiresInSeconds: Int? = nil) {
        self.username = username
        self.text = text
        self.amount = amount
        self.currency = currency
        self.payee = payee
        self.expiresInSeconds = expiresInSeconds
    }
}

/// `POST /v1/confirmations` answer.
public struct ConfirmationCreated: Codable, Sendable {
    public var confirmationId: String
    public var status: DecisionStatus
    public var expiresAt: Date

    public init(confirmationId: String, status: DecisionStatus, expiresAt: Date) {
        self.confirmationId = confirmationId
        self.status = status
        self.expiresAt = expiresAt
    }
}

/// `GET /v1/confirmations/{id}` answer: the outcome and its evidence.
public struct ConfirmationState: Codable, Sendable, Equatable {
    public var confirmationId: String
    public var status: DecisionStatus
    public var decidedAt: Date?
    public var deviceId: String?
    public var amr: [AuthenticationMethod]?
    public var txn: String
    /// The decision JWS, as evidence.
    public var decision: String?

    public init(
        confirmationId: String, status: DecisionStatus, decidedAt: Date?, deviceId: String?, amr: [AuthenticationMethod]?, txn: String,
        decision: String?
    ) {
        self.confirmationId = confirmationId
        self.status = status
        self.decidedAt = decidedAt
        self.deviceId = deviceId
        self.amr = amr
        self.txn = txn
        self.decision = decision
    }

    private enum CodingKeys: String, CodingKey {
        case confirmationId, status, decidedAt, deviceId, amr, txn, decision
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(confirmationId, forKey: .confirmationId)
        try container.encode(status, forKey: .status)
        try container.encode(decidedAt, forKey: .decidedAt)
        try container.encode(deviceId, forKey: .deviceId)
        try container.encode(amr, forKey: .amr)
        try container.encode(txn, forKey: .txn)
        try container.encode(decision, forKey: .decision)
    }
}

/// The state of a confirmation, a web login or an enrolment awaiting approval.
public struct DecisionStatus: RawRepresentable, Codable, Sendable, Hashable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let pending = Self(rawValue: "pending")
    public static let approved = Self(rawValue: "approved")
    public static let denied = Self(rawValue: "denied")
    public static let expired = Self(rawValue: "expired")
}
