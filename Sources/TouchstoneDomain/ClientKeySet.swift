import Foundation
import TouchstoneCrypto
import TouchstoneProtocol
import TouchstoneStorage

/// A client's JWK Set of public keys (`private_key_jwt`): EC P-256, OKP Ed25519 or RSA of at least 2048 bits.
package struct ClientKeySet: Sendable {
    /// One key, with the `kid` that picks it: the one the set gives, or its RFC 7638 thumbprint.
    package struct Key: Sendable {
        package var kid: String
        package var publicKey: DevicePublicKey
    }

    package let keys: [Key]

    /// Members that only a private or symmetric key has: a set holding one is refused whole.
    static let privateMembers: Set<String> = ["d", "p", "q", "dp", "dq", "qi", "oth", "k"]

    /// Reads a JWK Set file as `admin app create --jwks` and `admin app set-jwks` give it.
    /// - Throws: ``ConfigurationError`` of one line when the text is not a JSON object with a non-empty `keys` array,
    ///   a key has a private member, is of another type or is not valid, or two keys share a `kid`.
    package init(file data: Data) throws {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let members = object["keys"] as? [[String: Any]], !members.isEmpty, members.count <= 20
        else { throw ConfigurationError("the JWK Set must be a JSON object with 1 to 20 keys in \"keys\"") }
        var keys: [Key] = []
        for (index, member) in members.enumerated() {
            if let found = Self.privateMembers.first(where: { member[$0] != nil }) {
                throw ConfigurationError("key \(index + 1) of the JWK Set has the private member \"\(found)\"; give public keys only")
            }
            let jwk = PublicJWK(
                kty: member["kty"] as? String ?? "", crv: member["crv"] as? String, x: member["x"] as? String,
                y: member["y"] as? String, n: member["n"] as? String, e: member["e"] as? String)
            let publicKey: DevicePublicKey
            do {
                publicKey = try DevicePublicKey(jwk: jwk)
            } catch {
                throw ConfigurationError("key \(index + 1) of the JWK Set is refused: \(error)")
            }
            let kid = member["kid"] as? String ?? publicKey.thumbprint
            guard !keys.contains(where: { $0.kid == kid }) else {
                throw ConfigurationError("two keys of the JWK Set have the kid \(kid)")
            }
            keys.append(Key(kid: kid, publicKey: publicKey))
        }
        self.keys = keys
    }

    /// The set as the store keeps it: each key's canonical members and its `kid`.
    package var stored: String {
        get throws {
            let members = keys.map { StoredKey(kid: $0.kid, jwk: $0.publicKey.jwk) }
            return String(decoding: try JSONEncoder().encode(members), as: UTF8.self)
        }
    }

    /// A set the store kept.
    /// - Throws: when the text is not one ``stored`` wrote.
    package init(stored: String) throws {
        keys = try JSONDecoder().decode([StoredKey].self, from: Data(stored.utf8)).map {
            Key(kid: $0.kid, publicKey: try DevicePublicKey(jwk: $0.jwk))
        }
    }

    private struct StoredKey: Codable {
        var kid: String
        var jwk: PublicJWK
    }
}
