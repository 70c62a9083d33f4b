import Crypto

/// A COSE algorithm identifier (IANA "COSE Algorithms"), as carried in `alg` and `pubKeyCredParams`.
///
/// The credential public key's own `alg` decides how its signatures are verified; nothing in a request chooses it.
public struct COSEAlgorithm: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    public let rawValue: Int

    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// ECDSA with SHA-256 on P-256 (-7).
    public static let es256 = COSEAlgorithm(rawValue: -7)
    /// EdDSA; supported with the Ed25519 curve only (-8).
    public static let edDSA = COSEAlgorithm(rawValue: -8)
    /// ECDSA with SHA-384 on P-384 (-35).
    public static let es384 = COSEAlgorithm(rawValue: -35)
    /// ECDSA with SHA-512 on P-521 (-36).
    public static let es512 = COSEAlgorithm(rawValue: -36)
    /// RSASSA-PKCS1-v1_5 with SHA-256, moduli of 2048 bits or more (-257).
    public static let rs256 = COSEAlgorithm(rawValue: -257)
    /// Ed448 (-53). Not supported (swift-crypto has no Ed448): keys with it are refused with `unsupported_algorithm`.
    public static let ed448 = COSEAlgorithm(rawValue: -53)

    /// The algorithms this package verifies, in the order offered to authenticators.
    public static let supported: [COSEAlgorithm] = [.es256, .edDSA, .es384, .es512, .rs256]

    /// Whether this package can verify signatures made with the algorithm.
    public var isSupported: Bool { Self.supported.contains(self) }

    /// The hash function named by the algorithm, for formats that hash with "the hash algorithm employed in alg" (TPM).
    func digest(_ data: [UInt8]) -> [UInt8]? {
        switch self {
        case .es256, .rs256: return Array(SHA256.hash(data: data))
        case .es384: return Array(SHA384.hash(data: data))
        case .es512: return Array(SHA512.hash(data: data))
        default: return nil
        }
    }

    public var description: String {
        switch self {
        case .es256: "ES256"
        case .edDSA: "EdDSA"
        case .es384: "ES384"
        case .es512: "ES512"
        case .rs256: "RS256"
        case .ed448: "Ed448"
        default: "COSE algorithm \(rawValue)"
        }
    }

    public init(from decoder: any Decoder) throws {
        self.rawValue = try decoder.singleValueContainer().decode(Int.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
