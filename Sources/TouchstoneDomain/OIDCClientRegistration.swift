import Foundation
import TouchstoneCrypto
import TouchstoneProtocol
import TouchstoneStorage

/// What an administrator registers to make an app an OpenID Connect client, checked before it is stored.
package struct OIDCClientRegistration: Sendable {
    package var clientId: String
    package var name: String
    package var redirectURIs: [String]
    package var postLogoutRedirectURIs: [String]
    /// Whether the client authenticates with a secret (confidential) or not (public, PKCE only).
    package var confidential: Bool
    package var idTokenAlgorithm: String
    /// The client's public keys (`private_key_jwt`); a client with keys is confidential with or without a secret.
    package var keys: ClientKeySet?
    /// Its OpenID CIBA mode, when it may ask through `/oauth2/bc-authorize` (it then needs no redirect URI); set after
    /// `init`.
    package var ciba: CIBAClientRegistration?
    /// Whether the FAPI 2.0 Security Profile applies (`--fapi`): it needs keys and ES256 ID tokens; set after `init`.
    package var fapi = false

    package init(
        clientId: String, name: String?, redirectURIs: [String], postLogoutRedirectURIs: [String], confidential: Bool,
        idTokenAlgorithm: String, keys: ClientKeySet? = nil
    ) {
        self.clientId = clientId
        self.name = name ?? clientId
        self.redirectURIs = redirectURIs
        self.postLogoutRedirectURIs = postLogoutRedirectURIs
        self.confidential = confidential
        self.idTokenAlgorithm = idTokenAlgorithm
        self.keys = keys
    }

    /// The record to store, and the new secret (shown once) of a confidential client, drawn from `random`.
    /// - Throws: ``ConfigurationError`` for a client id that is not made of unreserved characters, a redirect URI that
    ///   is neither `https` nor `http` on localhost or 127.0.0.1, has a fragment or userinfo, is not absolute or holds
    ///   a character RFC 3986 does not allow in a URI, an empty name, an ID token algorithm other than RS256 and
    ///   ES256, or a FAPI client without keys, with a secret or with RS256 ID tokens.
    package func record(random: any RandomSource) throws -> (OIDCClientRecord, secret: String?) {
        guard !clientId.isEmpty, clientId.utf8.allSatisfy(PercentEncoding.isUnreserved) else {
            throw ConfigurationError("an OIDC client id may hold only letters, digits and - . _ ~")
        }
        guard !redirectURIs.isEmpty || ciba != nil else {
            throw ConfigurationError("an OIDC client needs a --redirect-uri (or --ciba-mode)")
        }
        for uri in redirectURIs + postLogoutRedirectURIs {
            try Self.check(uri)
        }
        guard !name.trimmingCharacters(in: .whitespaces).isEmpty, name.count <= 64 else {
            throw ConfigurationError("--name takes 1 to 64 characters")
        }
        guard ServerKeyAlgorithm(rawValue: idTokenAlgorithm) != nil else {
            throw ConfigurationError("--id-token-alg takes RS256 or ES256")
        }
        if fapi {
            guard keys != nil else { throw ConfigurationError("--fapi needs --jwks (private_key_jwt)") }
            // FAPI 2.0 SP §5.3.2.1: private_key_jwt (or mTLS, not offered here); never a shared secret.
            guard !confidential else {
                throw ConfigurationError("--fapi clients authenticate with private_key_jwt only: drop --client-secret")
            }
            guard idTokenAlgorithm == ServerKeyAlgorithm.es256.rawValue else {
                throw ConfigurationError("--fapi clients' ID tokens are ES256 (FAPI 2.0 does not allow RS256)")
            }
        }
        let secret = confidential ? random.token() : nil
        return (
            OIDCClientRecord(
                clientId: clientId, name: name, redirectURIs: redirectURIs, postLogoutRedirectURIs: postLogoutRedirectURIs,
                secretHash: secret.map(SecretDigest.sha256), idTokenAlgorithm: idTokenAlgorithm, jwks: try keys?.stored,
                fapi: fapi),
            secret
        )
    }

    /// An absolute `https` URI, or `http` whose host is `localhost` or `127.0.0.1`, with no fragment, no userinfo, and
    /// only the characters RFC 3986 allows in a URI (PROTOCOL "Clients").
    /// - ⚠️ The character rule is what keeps Foundation and browsers reading the same host: a browser reads
    ///   `http://evil.test\@localhost/cb` as a URI of `evil.test`, and would carry the code there.
    static func check(_ uri: String) throws {
        guard PercentEncoding.isURIText(uri) else {
            throw ConfigurationError(
                "\(uri) holds a character RFC 3986 does not allow in a URI (\\, white space, a control character, "
                    + "non-ASCII, or % not followed by two hex digits)")
        }
        guard let components = URLComponents(string: uri), let scheme = components.scheme?.lowercased(),
            let host = components.host, !host.isEmpty, components.fragment == nil, !uri.contains("#")
        else { throw ConfigurationError("\(uri) is not an absolute URI without a fragment") }
        guard components.user == nil, components.password == nil, !authority(of: uri).contains("@") else {
            throw ConfigurationError("\(uri) may not carry user information (user@host)")
        }
        guard scheme == "https" || (scheme == "http" && ["localhost", "127.0.0.1"].contains(host.lowercased())) else {
            throw ConfigurationError("\(uri) must use https (http only on localhost or 127.0.0.1)")
        }
    }

    /// What stands between the `//` of `scheme://` and the path, query or fragment.
    private static func authority(of uri: String) -> Substring {
        guard let start = uri.range(of: "//")?.upperBound else { return "" }
        return uri[start...].prefix { !"/?#".contains($0) }
    }
}
