import Crypto
import TouchstoneProtocol

/// RFC 7638 JWK thumbprints (SHA-256, base64url).
public enum Thumbprint {
    /// The thumbprint of a canonical public JWK: its required members in lexicographic order, no white space.
    public static func of(_ jwk: PublicJWK) -> String {
        let json: String
        switch jwk.kty {
        case "EC":
            json = #"{"crv":"\#(jwk.crv ?? "")","kty":"EC","x":"\#(jwk.x ?? "")","y":"\#(jwk.y ?? "")"}"#
        case "OKP":
            json = #"{"crv":"\#(jwk.crv ?? "")","kty":"OKP","x":"\#(jwk.x ?? "")"}"#
        default:
            json = #"{"e":"\#(jwk.e ?? "")","kty":"RSA","n":"\#(jwk.n ?? "")"}"#
        }
        return Base64URL.encode(SHA256.hash(data: Array(json.utf8)))
    }
}
