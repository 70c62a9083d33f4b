import TouchstoneProtocol

/// A refusal the protocol names: a stable code, what to tell the client, and the extra members some codes carry.
///
/// The domain decides which refusal; the HTTP layer gives each code its one status and title (`ProblemStatus`).
/// `detail` is shown to clients; put verification specifics in the log instead.
package struct ProblemError: Error, Sendable, Equatable {
    package var code: ProblemCode
    package var detail: String?
    package var attemptsRemaining: Int?
    /// Seconds, for `Retry-After`.
    package var retryAfter: Int?

    package init(_ code: ProblemCode, detail: String? = nil, attemptsRemaining: Int? = nil, retryAfter: Int? = nil) {
        self.code = code
        self.detail = detail
        self.attemptsRemaining = attemptsRemaining
        self.retryAfter = retryAfter
    }

    package static func invalidRequest(_ detail: String) -> ProblemError {
        ProblemError(.invalidRequest, detail: detail)
    }

    package static let invalidCredentials = ProblemError(.invalidCredentials)
    package static let challengeInvalid = ProblemError(.challengeInvalid)
    package static let invalidAssertion = ProblemError(.invalidAssertion)
    package static let invalidProof = ProblemError(.invalidProof)
    package static let unauthorized = ProblemError(.unauthorized)
    package static let invalidAPIKey = ProblemError(.unauthorized, detail: "A valid API key is required.")
    package static let appNotFound = ProblemError(.appNotFound)
    package static let deviceNotFound = ProblemError(.deviceNotFound)
    package static let deviceRevoked = ProblemError(.deviceRevoked)
    package static let deviceCompromised = ProblemError(.deviceCompromised)
    package static let pinLocked = ProblemError(.pinLocked)

    package static func invalidKey(_ detail: String) -> ProblemError {
        ProblemError(.invalidKey, detail: detail)
    }

    package static func invalidPIN(_ detail: String) -> ProblemError {
        ProblemError(.invalidPIN, detail: detail)
    }
}
