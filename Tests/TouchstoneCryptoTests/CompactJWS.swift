import Crypto
import Foundation
import TouchstoneCrypto
import TouchstoneProtocol
import _CryptoExtras

/// Compact JWS built by hand (RFC 7515 §7.1), for tokens `DeviceSigningKey` would never produce.
enum CompactJWS {
    /// `BASE64URL(header) "." BASE64URL(payload) "." BASE64URL(signature)`, signing the first two parts as ASCII.
    static func make(header: String, payload: Data, signature sign: (Data) throws -> Data) rethrows -> String {
        let input = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(payload)
        return input + "." + Base64URL.encode(try sign(Data(input.utf8)))
    }

    /// The three parts of a compact JWS, still encoded.
    static func parts(_ compact: String) -> [String] {
        compact.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }

    /// A signature by `material` over `input` with the key's own JWS algorithm (ES256 raw r‖s, EdDSA, RS256).
    static func signature(_ material: DeviceSigningKey.Material, over input: Data) throws -> Data {
        switch material {
        case .p256(let key): try key.signature(for: input).rawRepresentation
        case .ed25519(let key): try key.signature(for: input)
        case .rsa(let key): try key.signature(for: input, padding: .insecurePKCS1v1_5).rawRepresentation
        }
    }

    /// The JSON encoding of claims, the payload of a device token.
    static func payload(_ claims: some Encodable) throws -> Data {
        try JSONEncoder().encode(claims)
    }

    /// The order n of the P-256 group, big-endian.
    static let p256Order: [UInt8] = [
        0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0xBC, 0xE6, 0xFA, 0xAD, 0xA7, 0x17, 0x9E, 0x84, 0xF3, 0xB9, 0xCA, 0xC2, 0xFC, 0x63, 0x25, 0x51,
    ]

    /// The other valid ECDSA signature over the same input: (r, s) becomes (r, n − s).
    static func ecdsaTwin(_ signature: [UInt8]) -> [UInt8] {
        precondition(signature.count == 64)
        let s = Array(signature.suffix(32))
        var twin = [UInt8](repeating: 0, count: 32)
        var borrow = 0
        for index in stride(from: 31, through: 0, by: -1) {
            var difference = Int(p256Order[index]) - Int(s[index]) - borrow
            borrow = difference < 0 ? 1 : 0
            if difference < 0 { difference += 256 }
            twin[index] = UInt8(difference)
        }
        return Array(signature.prefix(32)) + twin
    }
}
