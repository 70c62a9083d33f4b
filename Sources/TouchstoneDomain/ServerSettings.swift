import Foundation
import TouchstoneAttestation
import TouchstoneStorage
import TouchstoneWebAuthn

/// What an operator configures; checked once at start-up.
public struct ServerSettings: Sendable {
    /// The public base URL: `aud` of device tokens, `iss` of access tokens. No trailing slash.
    public var issuer: String
    /// Whether `POST /v1/accounts` is open to anyone.
    public var selfSignup: Bool = true
    /// Proxies whose last `X-Forwarded-For` hop is trusted as the client's address.
    public var trustedProxies: [CIDR] = []
    /// bcrypt cost for passwords and PINs; at least 12.
    public var bcryptCost: UInt8 = PasswordHasher.minimumCost
    /// ⚠️ Tests only: a bcrypt cost below the minimum, which replaces ``bcryptCost`` (a test suite that hashes
    /// thousands of passwords spends most of its time in bcrypt). Set by `serve --insecure-bcrypt-cost`, which warns.
    package var insecureTestBcryptCost: UInt8?

    /// Sets ``insecureTestBcryptCost`` (`serve --insecure-bcrypt-cost`).
    /// - Throws: unless `cost` is from 4 (bcrypt's least) to one below the minimum.
    package mutating func setInsecureTestBcryptCost(_ cost: UInt8) throws {
        guard (4..<PasswordHasher.minimumCost).contains(cost) else {
            throw ConfigurationError("--insecure-bcrypt-cost takes 4 to \(PasswordHasher.minimumCost - 1)")
        }
        insecureTestBcryptCost = cost
    }
    /// Requests that may wait for a password or PIN hash at once (``HashingGate``); the contract's 64. Tests lower it.
    package var hashingLimit = HashingGate.standardLimit
    public var accessTokenLifetime: Int = 600
    public var challengeLifetime: TimeInterval = 60
    /// Serve the legacy auth0/TouchIDAuth `/pubkey` and `/login` endpoints.
    public var touchIDAuthCompat = false
    /// ⚠️ Accept legacy RSA keys of 1024 to 2047 bits (that library's default); weak, off unless asked for.
    public var insecureAllowRSA1024 = false
    /// PostgreSQL only: how long a database step may wait for a connection and then run on it.
    public var databaseBounds = DatabaseBounds()
    /// The account app: tokens without a device (`cnf`) are accepted by the v1 API only when issued to it (`aud`).
    public var accountClientId = AppRecord.demo.clientId
    /// Requests per client address and anonymous endpoint in a minute (``RateLimiter``); 0 turns the limit off.
    public var rateLimit = 300
    /// How long an enrolment waits for another device's approval.
    public var pendingEnrollmentLifetime: TimeInterval = 600
    /// Google's attestation status list (`serve --android-attestation-status`): an Android key attestation chain
    /// with a certificate listed REVOKED or SUSPENDED is refused. Empty by default: nothing is revoked.
    public var androidAttestationStatus = AttestationStatusList()
    /// The roots hardware key attestations may chain to: the built-in Google and Apple roots, plus any given with
    /// `serve --insecure-attestation-root`.
    public var attestationTrustAnchors = AttestationTrustAnchors()
    /// The WebAuthn relying party: by default the issuer's host as RP ID and the issuer's origin. Its origins are
    /// also the only ones CORS answers.
    public private(set) var relyingParty: RelyingPartyConfiguration

    /// - Throws: ``ConfigurationError`` for an issuer that is not an absolute URL, or not `https` outside localhost.
    public init(issuer: String) throws {
        var issuer = issuer
        while issuer.hasSuffix("/") { issuer.removeLast() }
        guard let url = URL(string: issuer), let scheme = url.scheme, let host = url.host, !host.isEmpty,
            url.query == nil, url.fragment == nil
        else {
            throw ConfigurationError("--issuer must be an absolute URL such as https://login.example.com")
        }
        guard scheme == "https" || (scheme == "http" && host == "localhost") else {
            throw ConfigurationError("--issuer must use https unless its host is localhost (got \(issuer))")
        }
        self.issuer = issuer
        relyingParty = try Self.relyingParty(id: host, origins: [Self.origin(of: url)])
    }

    /// Sets the WebAuthn RP ID and the origins allowed to use it (and CORS).
    /// - Parameters:
    ///   - id: the RP ID; `nil` keeps the issuer's host.
    ///   - origins: the web origins; empty keeps the issuer's origin.
    /// - Throws: ``ConfigurationError`` unless the RP ID is a registrable suffix of every origin's host and each
    ///   origin is `https` (or `http://localhost`).
    public mutating func setRelyingParty(id: String?, origins: [String]) throws {
        let issuerURL = URL(string: issuer)
        relyingParty = try Self.relyingParty(
            id: id ?? issuerURL?.host ?? "", origins: origins.isEmpty ? [issuerURL.map(Self.origin) ?? issuer] : origins)
    }

    private static func relyingParty(id: String, origins: [String]) throws -> RelyingPartyConfiguration {
        do {
            return try RelyingPartyConfiguration(id: id, name: "Touchstone", origins: origins)
        } catch {
            throw ConfigurationError("--rp-id/--origin: \(error.detail)")
        }
    }

    /// `scheme://host[:port]` of a URL.
    private static func origin(of url: URL) -> String {
        let port = url.port.map { ":\($0)" } ?? ""
        return "\(url.scheme ?? "https")://\(url.host ?? "")\(port)"
    }
}
