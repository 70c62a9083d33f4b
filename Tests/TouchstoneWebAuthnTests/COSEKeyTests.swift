import Crypto
import Foundation
import Testing
@testable import TouchstoneWebAuthn
import TouchstoneWebAuthnTestSupport

@Suite struct COSEKeyTests {
    static let p256 = P256.Signing.PrivateKey()
    static var x: [UInt8] { Array(p256.publicKey.x963Representation[1..<33]) }
    static var y: [UInt8] { Array(p256.publicKey.x963Representation[33..<65]) }

    static func key(_ pairs: [(Int, CBORValue)]) -> [UInt8] {
        CBOREncoder.encode(CBOREncoder.map(pairs.map { (CBOREncoder.int($0.0), $0.1) }))
    }

    static func ec2(alg: Int = -7, kty: Int = 2, crv: Int = 1, x: [UInt8] = x, y: CBORValue = .bytes(y), extra: [(Int, CBORValue)] = []) -> [UInt8] {
        key([(1, CBOREncoder.int(kty)), (3, CBOREncoder.int(alg)), (-1, CBOREncoder.int(crv)), (-2, .bytes(x)), (-3, y)] + extra)
    }

    func code(_ bytes: [UInt8]) -> WebAuthnError.Code? {
        let error = #expect(throws: WebAuthnError.self) { try COSEKey(bytes: bytes) }
        return error?.code
    }

    @Test func parsesTheSupportedKeyTypes() throws {
        let message = Array("message".utf8)
        let es256 = try COSEKey(bytes: Self.ec2())
        #expect(es256.algorithm == .es256)
        #expect(es256.isValidSignature(Array(try Self.p256.signature(for: message).derRepresentation), for: message))
        let p384 = P384.Signing.PrivateKey()
        let point384 = Array(p384.publicKey.x963Representation)
        let es384 = try COSEKey(bytes: Self.ec2(alg: -35, crv: 2, x: Array(point384[1..<49]), y: .bytes(Array(point384[49..<97]))))
        #expect(es384.isValidSignature(Array(try p384.signature(for: message).derRepresentation), for: message))
        let p521 = P521.Signing.PrivateKey()
        let point521 = Array(p521.publicKey.x963Representation)
        let es512 = try COSEKey(bytes: Self.ec2(alg: -36, crv: 3, x: Array(point521[1..<67]), y: .bytes(Array(point521[67..<133]))))
        #expect(es512.isValidSignature(Array(try p521.signature(for: message).derRepresentation), for: message))
        let ed = Curve25519.Signing.PrivateKey()
        let edKey = try COSEKey(bytes: Self.key([(1, .unsigned(1)), (3, CBOREncoder.int(-8)), (-1, .unsigned(6)), (-2, .bytes(Array(ed.publicKey.rawRepresentation)))]))
        #expect(edKey.isValidSignature(Array(try ed.signature(for: message)), for: message))
        #expect(!edKey.isValidSignature(Array(try Self.p256.signature(for: message).derRepresentation), for: message))
        // The §16.10 RS256 key (3482-bit modulus).
        let rsa = try AttestationObject(bytes: W3CVector.section("16.10").attestationObject).authenticatorData.attestedCredentialData?.credentialPublicKey()
        #expect(rsa?.algorithm == .rs256)
    }

    @Test func refusesUnsupportedAlgorithmsCleanly() {
        let ed448 = Self.key([(1, .unsigned(1)), (3, CBOREncoder.int(-53)), (-1, .unsigned(7)), (-2, .bytes([UInt8](repeating: 1, count: 57)))])
        #expect(code(ed448) == .unsupportedAlgorithm)
        let eddsaEd448 = Self.key([(1, .unsigned(1)), (3, CBOREncoder.int(-8)), (-1, .unsigned(7)), (-2, .bytes([UInt8](repeating: 1, count: 57)))])
        #expect(code(eddsaEd448) == .unsupportedAlgorithm)
        for alg in [-37, -65535, -47, -258, 1] {
            #expect(code(Self.ec2(alg: alg)) == .unsupportedAlgorithm, "alg \(alg)")
        }
    }

    @Test func refusesKeysWhoseParametersDisagreeWithAlg() {
        let p = P384.Signing.PrivateKey().publicKey.x963Representation
        let cases: [[UInt8]] = [
            Self.key([(1, .unsigned(2)), (-1, .unsigned(1)), (-2, .bytes(Self.x)), (-3, .bytes(Self.y))]),  // no alg
            Self.key([(3, CBOREncoder.int(-7)), (-1, .unsigned(1)), (-2, .bytes(Self.x)), (-3, .bytes(Self.y))]),  // no kty
            Self.ec2(kty: 3),
            Self.ec2(crv: 2),
            Self.ec2(alg: -35, crv: 2),  // P-256 coordinates for P-384
            Self.ec2(alg: -35, crv: 1, x: Array(p[1..<49]), y: .bytes(Array(p[49..<97]))),
            Self.ec2(x: Array(Self.x.dropFirst())),
            Self.ec2(y: .bool(true)),  // compressed point
            Self.ec2(y: .bytes(AttestationObjectEditor.flip(Self.y, at: 31))),  // not on the curve
            Self.ec2(extra: [(2, .bytes([1]))]),  // kid: an optional parameter
            Self.ec2(extra: [(-4, .bytes([1]))]),  // d: a private key
            CBOREncoder.encode(CBOREncoder.map([(.unsigned(1), .unsigned(2)), (.unsigned(3), CBOREncoder.int(-7)), (CBOREncoder.int(-1), .unsigned(1)),
                (CBOREncoder.int(-2), .bytes(Self.x)), (CBOREncoder.int(-3), .bytes(Self.y)), (.text("x"), .null)])),
            Self.key([(1, .unsigned(1)), (3, CBOREncoder.int(-8)), (-1, .unsigned(6)), (-2, .bytes([UInt8](repeating: 9, count: 31)))]),
            Self.key([(1, .unsigned(2)), (3, CBOREncoder.int(-8)), (-1, .unsigned(6)), (-2, .bytes([UInt8](repeating: 9, count: 32)))]),
            Self.key([(1, .unsigned(3)), (3, CBOREncoder.int(-257)), (-1, .bytes([0xc1] + [UInt8](repeating: 0x5b, count: 126) + [0x01])), (-2, .bytes([1, 0, 1]))]),  // 1024-bit RSA
            Self.key([(1, .unsigned(3)), (3, CBOREncoder.int(-257)), (-1, .bytes([0xc1] + [UInt8](repeating: 0x5b, count: 254) + [0x01]))]),  // no e
            [0xa0],
            [0x80],
            Self.ec2() + [0x00],
            Array(Self.ec2().dropLast()),
        ]
        for (index, bytes) in cases.enumerated() {
            #expect(code(bytes) == .malformedCredentialPublicKey, "case \(index)")
        }
        // Keys out of canonical order are not CTAP2 canonical CBOR.
        let reordered: [UInt8] = [0xa5, 0x03, 0x26, 0x01, 0x02, 0x20, 0x01, 0x21, 0x58, 0x20] + Self.x + [0x22, 0x58, 0x20] + Self.y
        #expect(code(reordered) == .malformedCredentialPublicKey)
    }

    @Test func theKeysAlgorithmAloneDecidesTheVerifier() throws {
        let message = Array("message".utf8)
        let key = try COSEKey(bytes: Self.ec2())
        // A P-256 signature over SHA-384 of the message (what ES384 would mean) does not verify under ES256.
        let digest = SHA384.hash(data: message)
        let prehashed = try Self.p256.signature(for: digest)
        #expect(!key.isValidSignature(Array(prehashed.derRepresentation), for: message))
        #expect(!key.isValidSignature(Array(try Self.p256.signature(for: message).rawRepresentation), for: message))
    }
}
