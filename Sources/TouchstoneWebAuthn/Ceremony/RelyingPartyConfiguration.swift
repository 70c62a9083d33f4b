import Crypto

/// A WebAuthn relying party: its RP ID, display name, the origins it serves, and its cross-origin policy.
///
/// Validated at construction: the RP ID must be a domain, and a registrable domain suffix of (or equal to) the host
/// of every origin; origins must be `https://host[:port]` (or `http://localhost[:port]` for development).
public struct RelyingPartyConfiguration: Sendable, Hashable {
    /// The RP ID, lowercase.
    public let id: String
    /// The name shown to users.
    public let name: String
    /// The accepted origins, serialized as browsers put them in client data.
    public let origins: [String]
    /// Whether cross-origin iframes may run ceremonies.
    public let crossOrigin: CrossOriginPolicy
    /// SHA-256 of the RP ID.
    let rpIdHash: [UInt8]

    /// - Parameters:
    ///   - id: the RP ID, e.g. `example.org`.
    ///   - name: the name authenticators may show.
    ///   - origins: the origins whose client data is accepted, e.g. `https://example.org`, `https://login.example.org`.
    ///   - crossOrigin: ``CrossOriginPolicy/refused`` unless the site is meant to be embedded.
    /// - Throws: ``WebAuthnError`` with code `invalid_configuration`, saying what to change.
    /// - ⚠️ This check cannot consult the Public Suffix List: do not configure a public suffix (such as `co.uk` or
    ///   `github.io`) as the RP ID. Single-label RP IDs other than `localhost` are refused.
    public init(id: String, name: String, origins: [String], crossOrigin: CrossOriginPolicy = .refused) throws(WebAuthnError) {
        let rpID = id.lowercased()
        guard WebOrigin.isDomain(rpID) else {
            throw WebAuthnError(.invalidConfiguration, "RP ID \"\(id)\" must be a domain name such as example.org")
        }
        guard rpID.contains(".") || rpID == "localhost" else {
            throw WebAuthnError(.invalidConfiguration, "RP ID \"\(id)\" is a single label; use a registrable domain such as example.org")
        }
        guard !origins.isEmpty else {
            throw WebAuthnError(.invalidConfiguration, "configure at least one origin, e.g. https://\(rpID)")
        }
        var normalized: [String] = []
        for text in origins {
            let origin = try WebOrigin(text)
            guard origin.host == rpID || origin.host.hasSuffix("." + rpID) else {
                throw WebAuthnError(
                    .invalidConfiguration,
                    "RP ID \"\(rpID)\" is not a registrable suffix of origin \"\(text)\": use an origin under \(rpID) or another RP ID")
            }
            if !normalized.contains(origin.serialized) { normalized.append(origin.serialized) }
        }
        var policy = crossOrigin
        if case .allowed(let topOrigins) = crossOrigin {
            var tops: [String] = []
            for text in topOrigins { tops.append(try WebOrigin(text).serialized) }
            policy = .allowed(topOrigins: tops)
        }
        self.id = rpID
        self.name = name
        self.origins = normalized
        self.crossOrigin = policy
        self.rpIdHash = Array(SHA256.hash(data: Array(rpID.utf8)))
    }

    /// §7.1 step 9 / §7.2 step 12: `C.origin` must be one of the configured origins (exact match on the serialization).
    func requireOrigin(_ clientData: CollectedClientData) throws(WebAuthnError) {
        guard origins.contains(clientData.origin) else {
            throw WebAuthnError(.originNotAllowed, "origin \(clientData.origin)")
        }
    }

    /// §7.1 step 10 / §7.2 step 13: `C.crossOrigin` true needs a policy that expects cross-origin iframes.
    func requireCrossOrigin(_ clientData: CollectedClientData) throws(WebAuthnError) {
        guard clientData.crossOrigin == true else { return }
        guard case .allowed = crossOrigin else {
            throw WebAuthnError(.crossOriginNotAllowed, "crossOrigin is true")
        }
    }

    /// §7.1 step 11 / §7.2 step 14: a `C.topOrigin` needs a policy that expects cross-origin iframes, and must be one
    /// of the allowed top origins.
    func requireTopOrigin(_ clientData: CollectedClientData) throws(WebAuthnError) {
        guard let topOrigin = clientData.topOrigin else { return }
        guard case .allowed(let topOrigins) = crossOrigin else {
            throw WebAuthnError(.crossOriginNotAllowed, "topOrigin \(topOrigin) present")
        }
        guard topOrigins.contains(topOrigin) else {
            throw WebAuthnError(.topOriginNotAllowed, "topOrigin \(topOrigin)")
        }
    }
}
