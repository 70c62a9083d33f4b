import Crypto

/// A `TPMT_PUBLIC` structure (TPM 2.0 Part 2 §12.2.4): the TPM's description of the credential public key.
struct TPMPublicArea: Sendable {
    static let algorithmRSA: UInt16 = 0x0001
    static let algorithmECC: UInt16 = 0x0023
    static let algorithmNull: UInt16 = 0x0010

    /// The key, from `parameters` and `unique`.
    enum Key: Sendable {
        case rsa(keyBits: UInt16, exponent: UInt32, modulus: [UInt8])
        case ecc(curveID: UInt16, x: [UInt8], y: [UInt8])
    }

    /// The structure's bytes, which its Name hashes.
    let bytes: [UInt8]
    /// The algorithm that computes the object's Name.
    let nameAlgorithm: UInt16
    let key: Key

    init(bytes: [UInt8]) throws {
        var reader = TPMReader(bytes)
        let type = try reader.uint16()
        nameAlgorithm = try reader.uint16()
        _ = try reader.uint32()  // objectAttributes
        _ = try reader.sized()  // authPolicy
        // A signing key has no symmetric algorithm (TPMT_SYM_DEF_OBJECT = TPM_ALG_NULL).
        guard try reader.uint16() == Self.algorithmNull else { throw TPMReader.Truncated() }
        switch type {
        case Self.algorithmRSA:
            try Self.skipScheme(&reader)
            let keyBits = try reader.uint16()
            let exponent = try reader.uint32()
            key = .rsa(keyBits: keyBits, exponent: exponent, modulus: try reader.sized())
        case Self.algorithmECC:
            try Self.skipScheme(&reader)
            let curveID = try reader.uint16()
            try Self.skipScheme(&reader)  // kdf
            let x = try reader.sized()
            key = .ecc(curveID: curveID, x: x, y: try reader.sized())
        default:
            throw TPMReader.Truncated()
        }
        guard reader.isAtEnd else { throw TPMReader.Truncated() }
        self.bytes = bytes
    }

    /// A scheme: an algorithm, then its hash algorithm unless it is TPM_ALG_NULL.
    private static func skipScheme(_ reader: inout TPMReader) throws {
        if try reader.uint16() != algorithmNull { _ = try reader.uint16() }
    }

    /// The object's Name: nameAlg ‖ H_nameAlg(TPMT_PUBLIC) (TPM 2.0 Part 1 §16). Nil for hash algorithms other than
    /// SHA-256, SHA-384 and SHA-512.
    var name: [UInt8]? {
        let digest: [UInt8]
        switch nameAlgorithm {
        case 0x000B: digest = Array(SHA256.hash(data: bytes))
        case 0x000C: digest = Array(SHA384.hash(data: bytes))
        case 0x000D: digest = Array(SHA512.hash(data: bytes))
        default: return nil
        }
        return [UInt8(nameAlgorithm >> 8), UInt8(nameAlgorithm & 0xff)] + digest
    }

    /// Whether the key is the credential public key.
    func matches(_ credentialKey: COSEKey) -> Bool {
        func integer(_ bytes: [UInt8]) -> ArraySlice<UInt8> { bytes.drop { $0 == 0 } }
        switch (key, credentialKey.parameters) {
        case (.ecc(let curveID, let x, let y), .ec2(let curve, let coseX, let coseY)):
            let expectedCurve: Int? = [0x0003: 1, 0x0004: 2, 0x0005: 3][curveID]
            return expectedCurve == curve && integer(x) == integer(coseX) && integer(y) == integer(coseY)
        case (.rsa(_, let exponent, let modulus), .rsa(let n, let e)):
            let tpmExponent = exponent == 0 ? 65537 : UInt64(exponent)
            guard e.count <= 8 else { return false }
            let coseExponent = e.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            return integer(modulus) == integer(n) && tpmExponent == coseExponent
        default:
            return false
        }
    }
}
