import Foundation

/// `POST /v1/challenges` body.
public struct ChallengeRequest: Codable, Sendable {
    public var deviceId: String
    public var purpose: String

    public init(deviceId: String, purpose: String = "login") {
        self.deviceId = deviceId
        self.purpose = purpose
    }
}

/// `POST /v1/challenges` answer.
public struct ChallengeIssued: Codable, Sendable {
    public var challenge: String
    public var expiresAt: Date

    public init(challenge: String, expiresAt: Date) {
        self.challenge = challenge
        self.expiresAt = expiresAt
    }
}

/// `POST /v1/sessions` body.
public struct AssertionLoginRequest: Codable, Sendable {
    public var clientId: String
    public var assertion: String

    public init(clientId: String, assertion: String) {
        self.clientId = clientId
        self.assertion = assertion
    }
}

/// `POST /v1/sessions/refresh` body.
public struct RefreshRequest: Codable, Sendable {
    public var refreshToken: String

    public init(refreshToken: String) {
        self.refreshToken = refreshToken
    }
}

/// The tokens of a session, as every login, refresh and approval returns them.
public struct Session: Codable, Sendable, Equatable {
    public var accessToken: String
    public var refreshToken: String
    public var tokenType: String
    public var expiresIn: Int
    public var amr: [AuthenticationMethod]
    public var acr: AssuranceLevel
    public var userId: String
    /// `null` (never omitted) for sessions without a device.
    public var deviceId: String?
    public var scope: String

    public init(
        accessToken: String, refreshToken: String, expiresIn: Int, amr: [AuthenticationMethod], acr: AssuranceLevel,
        userId: String, deviceId: String?, scope: String
    ) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.tokenType = "Bearer"
        self.expiresIn = expiresIn
        self.amr = amr
        self.acr = acr
        self.userId = userId
        self.deviceId = deviceId
        self.scope = scope
    }

    private enum CodingKeys: String, CodingKey {
        case accessToken, refreshToken, tokenType, expiresIn, amr, acr, userId, deviceId, scope
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(accessToken, forKey: .accessToken)
        try container.encode(refreshToken, forKey: .refreshToken)
        try container.encode(tokenType, forKey: .tokenType)
        try container.encode(expiresIn, forKey: .expiresIn)
        try container.encode(amr, forKey: .amr)
        try container.encode(acr, forKey: .acr)
        try container.encode(userId, forKey: .userId)
        try container.encode(deviceId, forKey: .deviceId)
        try container.encode(scope, forKey: .scope)
    }
}

/// One live session of the user, in `GET /v1/sessions`.
public struct SessionSummary: Codable, Sendable, Equatable {
    /// The access tokens' `sid`.
    public var sessionId: String
    public var clientId: String
    /// `null` (never omitted) for sessions without a device.
    public var deviceId: String?
    public var amr: [AuthenticationMethod]
    public var acr: AssuranceLevel
    public var createdAt: Date
    public var lastActivityAt: Date
    /// The address that created the session, as text; `null` for sessions older than this member.
    public var ip: String?
    /// Whether this is the caller's own session.
    public var current: Bool

    public init(
        sessionId: String, clientId: String, deviceId: String?, amr: [AuthenticationMethod], acr: AssuranceLevel, createdAt: Date,
        lastActivityAt: Date, ip: String?, current: Bool
    ) {
        self.sessionId = sessionId
        self.clientId = clientId
        self.deviceId = deviceId
        self.amr = amr
        self.acr = acr
        self.createdAt = createdAt
        self.lastActivityAt = lastActivityAt
        self.ip = ip
        self.current = current
    }

    private enum CodingKeys: String, CodingKey {
        case sessionId, clientId, deviceId, amr, acr, createdAt, lastActivityAt, ip, current
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sessionId, forKey: .sessionId)
        try container.encode(clientId, forKey: .clientId)
        try container.encode(deviceId, forKey: .deviceId)
        try container.encode(amr, forKey: .amr)
        try container.encode(acr, forKey: .acr)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(lastActivityAt, forKey: .lastActivityAt)
        try container.encode(ip, forKey: .ip)
        try container.encode(current, forKey: .current)
    }
}

/// `GET /v1/sessions` answer.
public struct SessionList: Codable, Sendable, Equatable {
    public var sessions: [SessionSummary]

    public init(sessions: [SessionSummary]) {
        self.sessions = sessions
    }
}

extension ChallengeIssued: HandWrittenJSON {
    public func writeJSON(into object: inout JSONObjectWriter) {
        object.member("challenge", challenge)
        object.member("expiresAt", date: Int64(expiresAt.timeIntervalSince1970.rounded(.down)))
    }
}

extension Session: HandWrittenJSON {
    /// In ``WireCoding``'s order (sorted keys).
    public func writeJSON(into object: inout JSONObjectWriter) {
        object.member("accessToken", accessToken)
        object.member("acr", acr.rawValue)
        object.member("amr", amr.map(\.rawValue))
        object.member("deviceId", deviceId)
        object.member("expiresIn", expiresIn)
        object.member("refreshToken", refreshToken)
        object.member("scope", scope)
        object.member("tokenType", tokenType)
        object.member("userId", userId)
    }
}
