import Foundation
import TouchstoneCrypto
import TouchstoneProtocol
import TouchstoneStorage

/// A checked authorization request (OpenID Connect Core §3.1.2.1 with PKCE, RFC 7636): what the provider keeps while
/// the user signs in, or after a client pushed it (PAR).
package struct AuthorizationParameters: Codable, Sendable, Equatable {
    package enum Prompt: String, Codable, Sendable {
        case none, login, consent
    }

    package var clientId: String
    package var redirectURI: String
    /// The scopes granted: those asked for that the provider knows (`openid` always among them).
    package var scopes: [String]
    package var state: String?
    package var nonce: String?
    package var codeChallenge: String
    package var prompts: [Prompt]
    package var maxAge: Int?
    /// The levels the session must reach one of; empty for any.
    package var acrValues: [AssuranceLevel]
    package var loginHint: String?
    /// The DPoP key (RFC 7638 thumbprint) the code may be exchanged with only: PAR's `dpop_jkt` or proof.
    package var dpopJKT: String?
    /// The `authorization_details` (RFC 9396) as the client sent them, checked (``AuthorizationDetails``): a payment
    /// that only a phone's approval grants.
    package var authorizationDetails: String?

    /// The scopes a client can be granted.
    static let supportedScopes = ["openid", "profile", "offline_access"]
    /// The longest value of any parameter but `authorization_details` (whose own rules bound it, as at
    /// `/oauth2/bc-authorize`).
    static let maximumLength = 2_048

    package var scope: String { scopes.joined(separator: " ") }

    /// The parameters as the store keeps them (JSON).
    func stored() throws -> String {
        String(decoding: try JSONEncoder().encode(self), as: UTF8.self)
    }

    /// Parameters the store kept.
    init(stored: String) throws {
        self = try JSONDecoder().decode(Self.self, from: Data(stored.utf8))
    }

    /// Whether an existing sign-in of level `acr` at `authTime` satisfies `acr_values` and `max_age` at `now`
    /// (`max_age=0` asks for a new sign-in, as `prompt=login` does).
    func isSatisfied(byACR acr: AssuranceLevel, authTime: Date, now: Date) -> Bool {
        if let maxAge, maxAge == 0 || now.timeIntervalSince(authTime) > TimeInterval(maxAge) { return false }
        return Self.satisfies(acr: acr, acrValues: acrValues)
    }

    /// Whether a sign-in of level `acr` reaches one of `acrValues` (a stronger level satisfies a weaker one).
    static func satisfies(acr: AssuranceLevel, acrValues: [AssuranceLevel]) -> Bool {
        guard !acrValues.isEmpty else { return true }
        let rank = AssuranceLevel.all.firstIndex(of: acr) ?? -1
        return acrValues.contains { AssuranceLevel.all.firstIndex(of: $0).map { rank >= $0 } ?? false }
    }

    /// The level the sign-in page must reach: `aal2` when only `aal2` satisfies `acr_values`, or for payment details.
    var requiredACR: AssuranceLevel {
        authorizationDetails == nil && Self.satisfies(acr: .aal1, acrValues: acrValues) ? .aal1 : .aal2
    }

    /// The checked payment details and the `txn` a phone's approval of them carries (as for CIBA: the client's id and
    /// no binding message); `nil` without `authorization_details`.
    func payment() throws -> (details: AuthorizationDetails, txn: String)? {
        guard let authorizationDetails else { return nil }
        let details = try AuthorizationDetails(authorizationDetails)
        return (
            details,
            TransactionHash.ofBackchannel(clientId: clientId, bindingMessage: nil, canonicalDetails: details.canonical)
        )
    }

    /// Checks every parameter but `client_id` and `redirect_uri`, which the caller has already checked (their errors
    /// are never redirected).
    /// - Throws: the ``OAuthError`` to send back to the client's redirect URI.
    init(_ parameters: OAuthParameters, clientId: String, redirectURI: String) throws(OAuthError) {
        self.clientId = clientId
        self.redirectURI = redirectURI
        for (name, value) in parameters.pairs
        where value.count > Self.maximumLength && name != "authorization_details" {
            throw .invalidRequest("\(name) is longer than \(Self.maximumLength) characters")
        }
        if try parameters.single("request") != nil {
            throw .invalidRequest("request objects are not supported: use PAR")
        }
        guard let responseType = try parameters.single("response_type") else {
            throw .invalidRequest("response_type is missing")
        }
        guard responseType == "code" else {
            throw OAuthError(.unsupportedResponseType, "only response_type=code is supported")
        }
        if let mode = try parameters.single("response_mode"), mode != "query" {
            throw .invalidRequest("only response_mode=query is supported")
        }
        state = try parameters.single("state")
        guard let scope = try parameters.single("scope") else { throw .invalidRequest("scope is missing") }
        let asked = scope.split(separator: " ").map(String.init)
        guard asked.contains("openid") else { throw OAuthError(.invalidScope, "scope must contain openid") }
        scopes = Self.supportedScopes.filter(asked.contains)
        guard let challenge = try parameters.single("code_challenge") else {
            throw .invalidRequest("code_challenge is missing: PKCE is required")
        }
        guard PKCE.isWellFormed(challenge) else {
            throw .invalidRequest("code_challenge must be 43 to 128 unreserved characters")
        }
        codeChallenge = challenge
        guard let method = try parameters.single("code_challenge_method") else {
            throw .invalidRequest("code_challenge_method is missing: it must be S256")
        }
        guard method == "S256" else { throw .invalidRequest("code_challenge_method must be S256") }
        nonce = try parameters.single("nonce")
        loginHint = try parameters.single("login_hint")
        var prompts: [Prompt] = []
        for value in try parameters.single("prompt")?.split(separator: " ") ?? [] {
            guard let prompt = Prompt(rawValue: String(value)) else {
                throw .invalidRequest("prompt takes none, login or consent")
            }
            prompts.append(prompt)
        }
        guard !prompts.contains(.none) || prompts.count == 1 else {
            throw .invalidRequest("prompt=none cannot go with another prompt")
        }
        self.prompts = prompts
        if let maxAge = try parameters.single("max_age") {
            guard let seconds = Int(maxAge), seconds >= 0 else {
                throw .invalidRequest("max_age must be a whole number of seconds")
            }
            self.maxAge = seconds
        }
        let acrValues = try parameters.single("acr_values")?.split(separator: " ").map(String.init) ?? []
        self.acrValues = acrValues.map(AssuranceLevel.init(rawValue:)).filter(AssuranceLevel.all.contains)
        guard acrValues.isEmpty || !self.acrValues.isEmpty else {
            throw .invalidRequest("acr_values names no level of this provider (aal1, aal2)")
        }
        if let details = try parameters.single("authorization_details") {
            _ = try AuthorizationDetails(details)
            authorizationDetails = details
        }
    }
}
