import Crypto
import Foundation
import TouchstoneProtocol

/// A server-signed access token (`typ: at+jwt`), split and decoded without trusting it.
struct AccessToken {
    struct Header: Decodable {
        var typ: String
        var alg: String
        var kid: String
    }

    struct Confirmation: Decodable, Equatable {
        var jkt: String
    }

    struct Claims: Decodable {
        var iss: String
        var aud: String
        var sub: String
        var sid: String
        var did: String?
        var amr: [String]
        var acr: String
        var auth_time: Int64
        var scope: String
        var cnf: Confirmation?
        var iat: Int64
        var exp: Int64
        var jti: String
    }

    let compact: String
    let header: Header
    let claims: Claims
    /// The payload's members, to check which are present.
    let payloadObject: [String: Any]

    init(_ compact: String) throws {
        let parts = compact.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let header = Base64URL.decode(parts[0]), let payload = Base64URL.decode(parts[1]),
            let object = try JSONSerialization.jsonObject(with: payload) as? [String: Any]
        else { throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "not a compact JWS")) }
        self.compact = compact
        self.header = try JSONDecoder().decode(Header.self, from: header)
        self.claims = try JSONDecoder().decode(Claims.self, from: payload)
        self.payloadObject = object
    }

    /// A copy whose payload has `sub` changed, with the original signature.
    func tamperedCopy() throws -> String {
        let parts = compact.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var object = payloadObject
        object["sub"] = "someone-else"
        let payload = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return [parts[0], Base64URL.encode(payload), parts[2]].joined(separator: ".")
    }

    /// Whether `compact`'s ES256 signature (raw r‖s) verifies with a P-256 key from the JWKS.
    static func signatureVerifies(_ compact: String, with key: JWKSet.Key) throws -> Bool {
        let parts = compact.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, key.kty == "EC", key.crv == "P-256", let x = key.x.flatMap(Base64URL.decode),
            let y = key.y.flatMap(Base64URL.decode), let signature = Base64URL.decode(parts[2])
        else { return false }
        let publicKey = try P256.Signing.PublicKey(x963Representation: [0x04] + x + y)
        guard let ecdsa = try? P256.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
        return publicKey.isValidSignature(ecdsa, for: Data((parts[0] + "." + parts[1]).utf8))
    }
}
