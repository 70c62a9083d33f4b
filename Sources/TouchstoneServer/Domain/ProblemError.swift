import TouchstoneProtocol

/// A refusal the protocol names: a status, a stable code, and the extra members some codes carry.
///
/// `detail` is shown to clients; put verification specifics in the log instead.
struct ProblemError: Error, Sendable, Equatable {
    var statusCode: Int
    var code: ProblemCode
    var title: String
    var detail: String?
    var attemptsRemaining: Int?
    /// Seconds, for `Retry-After`.
    var retryAfter: Int?

    init(
        _ status: Int, _ code: ProblemCode, _ title: String, detail: String? = nil, attemptsRemaining: Int? = nil,
        retryAfter: Int? = nil
    ) {
        self.statusCode = status
        self.code = code
        self.title = title
        self.detail = detail
        self.attemptsRemaining = attemptsRemaining
        self.retryAfter = retryAfter
    }

    var problem: Problem {
        Problem(status: statusCode, code: code, title: title, detail: detail, attemptsRemaining: attemptsRemaining)
    }

    static func invalidRequest(_ detail: String) -> ProblemError {
        ProblemError(400, .invalidRequest, "The request is malformed.", detail: detail)
    }

    static let invalidCredentials = ProblemError(401, .invalidCredentials, "The username or password is wrong.")
    static let challengeInvalid = ProblemError(401, .challengeInvalid, "The challenge is unknown, used or expired.")
    static let invalidAssertion = ProblemError(401, .invalidAssertion, "The assertion could not be verified.")
    static let invalidProof = ProblemError(401, .invalidProof, "A proof of possession could not be verified.")
    static let unauthorized = ProblemError(401, .unauthorized, "A valid access token is required.")
    static let appNotFound = ProblemError(404, .appNotFound, "No app has this client id.")
    static let deviceNotFound = ProblemError(404, .deviceNotFound, "No such device.")
    static let deviceRevoked = ProblemError(403, .deviceRevoked, "This device has been revoked.")
    static let deviceCompromised = ProblemError(
        403, .deviceCompromised, "The app's policy refuses devices that report being compromised.")
    static let pinLocked = ProblemError(423, .pinLocked, "The PIN is locked after too many wrong attempts.")

    static func invalidKey(_ detail: String) -> ProblemError {
        ProblemError(400, .invalidKey, "The public key is not acceptable.", detail: detail)
    }

    static func invalidPIN(_ detail: String) -> ProblemError {
        ProblemError(400, .invalidPIN, "The PIN is not acceptable.", detail: detail)
    }
}
