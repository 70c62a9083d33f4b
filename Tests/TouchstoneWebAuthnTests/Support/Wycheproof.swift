import Testing
@testable import TouchstoneWebAuthn
import TouchstoneWebAuthnTestSupport

/// Wycheproof signature-verification files (C2SP/wycheproof `testvectors_v1`), decoded into `Codable` cases.
enum Wycheproof {
    struct File: Decodable {
        let numberOfTests: Int
        let testGroups: [Group]
    }

    struct Group: Decodable {
        let publicKey: PublicKey
        let tests: [Case]
    }

    /// The members of the three key shapes used here; each file fills the ones of its kind.
    struct PublicKey: Decodable {
        let uncompressed: String?  // ECDSA
        let pk: String?  // EdDSA
        let modulus: String?  // RSA
        let publicExponent: String?  // RSA
    }

    struct Case: Decodable {
        let tcId: Int
        let comment: String
        let flags: [String]
        let msg: String
        let sig: String
        let result: String
    }

    /// A file, and how to turn its public keys into COSE keys as WebAuthn carries them.
    struct Suite: Sendable, CustomTestStringConvertible {
        let path: String
        let tests: Int
        let coseKey: @Sendable (PublicKey) -> [UInt8]

        var testDescription: String { path }

        static let ecdsaP256DER = Suite(path: "wycheproof/ecdsa_secp256r1_sha256_test.json", tests: 484) { key in
            let point = Hex.bytes(key.uncompressed ?? "")
            return CBOREncoder.encode(CBOREncoder.map([
                (.unsigned(1), .unsigned(2)), (.unsigned(3), CBOREncoder.int(-7)), (CBOREncoder.int(-1), .unsigned(1)),
                (CBOREncoder.int(-2), .bytes(Array(point[1..<33]))), (CBOREncoder.int(-3), .bytes(Array(point[33..<65]))),
            ]))
        }

        static let ed25519 = Suite(path: "wycheproof/ed25519_test.json", tests: 151) { key in
            CBOREncoder.encode(CBOREncoder.map([
                (.unsigned(1), .unsigned(1)), (.unsigned(3), CBOREncoder.int(-8)), (CBOREncoder.int(-1), .unsigned(6)),
                (CBOREncoder.int(-2), .bytes(Hex.bytes(key.pk ?? ""))),
            ]))
        }

        static let rsa2048PKCS1 = Suite(path: "wycheproof/rsa_signature_2048_sha256_test.json", tests: 259) { key in
            CBOREncoder.encode(CBOREncoder.map([
                (.unsigned(1), .unsigned(3)), (.unsigned(3), CBOREncoder.int(-257)),
                (CBOREncoder.int(-1), .bytes(Hex.bytes(key.modulus ?? ""))),
                (CBOREncoder.int(-2), .bytes(Hex.bytes(key.publicExponent ?? ""))),
            ]))
        }
    }
}
