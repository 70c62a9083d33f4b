import Foundation
import TouchstoneCrypto
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

    package init(
        clientId: String, name: String?, redirectURIs: [String], postLogoutRedirectURIs: [String], confidential: Bool,
        idTokenAlgorithm: String
    ) {
        self.clientId = clientId
        self.name = name ?? clientId
        self.redirectURIs = redirectURIs
        self.postLogoutRedirectURIs = postLogoutRedirectURIs
        self.confidential = confidential
        self.idTokenAlgorithm = idTokenAlgorithm
    }

    /// The record to store, and the new secret (shown once) of a confidential client.
    /// - Throws: ``ConfigurationError`` for a client id that is not made of unreserved characters, a redirect URI that
    ///   is neither `https` nor `http` on localhost or 127.0.0.1, has a fragment or is not absolute, an empty name, or
    ///   an ID token algorithm other than RS256 and ES256.
    package func record() throws -> (OIDCClientRecord, secret: String?) {
        guard !clientId.isEmpty, clientId.unicodeScalars.allSatisfy(Self.isUnreserved) else {
            throw ConfigurationError("an OIDC client id may hold only letters, digits and - . _ ~")
        }
        guard !redirectURIs.isEmpty else { throw ConfigurationError("an OIDC client needs a --redirect-uri") }
        for uri in redirectURIs + postLogoutRedirectURIs {
            try Self.check(uri)
        }
        guard !name.trimmingCharacters(in: .whitespaces).isEmpty, name.count <= 64 else {
            throw ConfigurationError("--name takes 1 to 64 characters")
        }
        guard ServerKeyAlgorithm(rawValue: idTokenAlgorithm) != nil else {
            throw ConfigurationError("--id-token-alg takes RS256 or ES256")
        }
        let secret = confidential ? SecretDigest.randomToken() : nil
        return (
            OIDCClientRecord(
                clientId: clientId, name: name, redirectURIs: redirectURIs, postLogoutRedirectURIs: postLogoutRedirectURIs,
                secretHash: secret.map(SecretDigest.sha256), idTokenAlgorithm: idTokenAlgorithm),
            secret
        )
    }

    /// An absolute `https` URI, or `http` whose host is `localhost` or `127.0.0.1`, without a fragment.
    private static func check(_ uri: String) throws {
        guard let components = URLComponents(string: uri), let scheme = components.scheme?.lowercased(),
            let host = components.host, !host.isEmpty, components.fragment == nil, !uri.contains("#")
        else { throw ConfigurationError("\(uri) is not an absolute URI without a fragment") }
        guard scheme == "https" || (scheme == "http" && ["localhost", "127.0.0.1"].contains(host.lowercased())) else {
            throw ConfigurationError("\(uri) must use https (http only on localhost or 127.0.0.1)")
        }
    }

    private static func isUnreserved(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "-._~".unicodeScalars.contains(scalar))
    }
}
