import Crypto
import Foundation
@testable import TouchstoneWebAuthn

/// A software authenticator for tests: it makes registrations and assertions with any flags, counters, client data
/// and attestation, so that every verification step can be driven to fail on its own.
public struct SoftAuthenticator {
    public enum Key {
        case p256(P256.Signing.PrivateKey)
        case ed25519(Curve25519.Signing.PrivateKey)
    }

    public var key: Key
    public var credentialID: [UInt8]
    public var aaguid: [UInt8] = Array(repeating: 0xa5, count: 16)
    public var rpID = "example.org"
    public var origin = "https://example.org"
    /// A credential public key to put in authenticator data instead of this authenticator's own (its private key is
    /// then unknown, so only unsigned or separately signed attestations can be made).
    public var coseKeyOverride: [UInt8]? = nil

    public init(seed: UInt64, algorithm: COSEAlgorithm = .es256, credentialIDLength: Int = 32) {
        var rng = SplitMix64(seed: seed)
        credentialID = rng.bytes(credentialIDLength)
        let secret = rng.bytes(32)
        if algorithm == .edDSA, let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: secret) {
            self.key = .ed25519(key)
        } else if let key = try? P256.Signing.PrivateKey(rawRepresentation: secret) {
            self.key = .p256(key)
        } else {
            preconditionFailure("bad seed")
        }
    }

    public var algorithm: COSEAlgorithm {
        if case .ed25519 = key { return .edDSA }
        return .es256
    }

    public var coseKey: [UInt8] {
        if let coseKeyOverride { return coseKeyOverride }
        switch key {
        case .p256(let k):
            let point = Array(k.publicKey.x963Representation)
            return CBOREncoder.encode(CBOREncoder.map([
                (.unsigned(1), .unsigned(2)), (.unsigned(3), CBOREncoder.int(-7)), (CBOREncoder.int(-1), .unsigned(1)),
                (CBOREncoder.int(-2), .bytes(Array(point[1..<33]))), (CBOREncoder.int(-3), .bytes(Array(point[33..<65]))),
            ]))
        case .ed25519(let k):
            return CBOREncoder.encode(CBOREncoder.map([
                (.unsigned(1), .unsigned(1)), (.unsigned(3), CBOREncoder.int(-8)), (CBOREncoder.int(-1), .unsigned(6)),
                (CBOREncoder.int(-2), .bytes(Array(k.publicKey.rawRepresentation))),
            ]))
        }
    }

    public var p256PublicKey: P256.Signing.PublicKey? {
        if case .p256(let k) = key { return k.publicKey }
        return nil
    }

    public func sign(_ message: [UInt8]) -> [UInt8] {
        switch key {
        case .p256(let k): return Array((try? k.signature(for: message).derRepresentation) ?? Data())
        case .ed25519(let k): return Array((try? k.signature(for: message)) ?? Data())
        }
    }

    public static func clientData(
        type: String, challenge: [UInt8], origin: String, crossOrigin: Bool? = false, topOrigin: String? = nil
    ) -> [UInt8] {
        var json = #"{"type":"\#(type)","challenge":"\#(Base64URL.encode(challenge))","origin":"\#(origin)""#
        if let crossOrigin { json += #","crossOrigin":\#(crossOrigin)"# }
        if let topOrigin { json += #","topOrigin":"\#(topOrigin)""# }
        return Array((json + "}").utf8)
    }

    public func authenticatorData(
        flags: AuthenticatorFlags, signCount: UInt32, attested: Bool, extensions: CBORValue? = nil
    ) -> [UInt8] {
        var flags = flags
        if attested { flags.insert(.attestedCredentialData) }
        if extensions != nil { flags.insert(.extensionData) }
        var data = Array(SHA256.hash(data: Array(rpID.utf8))) + [flags.rawValue] + CBOREncoder.bigEndian(UInt64(signCount), 4)
        if attested {
            data += aaguid + CBOREncoder.bigEndian(UInt64(credentialID.count), 2) + credentialID + coseKey
        }
        if let extensions { data += CBOREncoder.encode(extensions) }
        return data
    }

    public static func attestationObject(format: String, statement: CBORValue, authenticatorData: [UInt8]) -> [UInt8] {
        CBOREncoder.encode(CBOREncoder.map([
            (.text("fmt"), .text(format)), (.text("attStmt"), statement), (.text("authData"), .bytes(authenticatorData)),
        ]))
    }

    public struct Registration {
        public var clientDataJSON: [UInt8]
        public var authenticatorData: [UInt8]
        public var attestationObject: [UInt8]
        public var clientDataHash: [UInt8] { Array(SHA256.hash(data: clientDataJSON)) }
    }

    public enum Attestation {
        case none
        case packedSelf
        /// Builds the statement from (authenticatorData, clientDataHash).
        case custom(format: String, statement: ([UInt8], [UInt8]) -> CBORValue)
    }

    public func register(
        challenge: [UInt8], flags: AuthenticatorFlags = [.userPresent, .userVerified], signCount: UInt32 = 0,
        attestation: Attestation = .none, extensions: CBORValue? = nil, clientDataJSON: [UInt8]? = nil
    ) -> Registration {
        let clientData = clientDataJSON ?? Self.clientData(type: "webauthn.create", challenge: challenge, origin: origin)
        let authData = authenticatorData(flags: flags, signCount: signCount, attested: true, extensions: extensions)
        let hash = Array(SHA256.hash(data: clientData))
        let format: String
        let statement: CBORValue
        switch attestation {
        case .none:
            (format, statement) = ("none", .map(CBORMap([])))
        case .packedSelf:
            format = "packed"
            statement = CBOREncoder.map([
                (.text("alg"), CBOREncoder.int(algorithm.rawValue)), (.text("sig"), .bytes(sign(authData + hash))),
            ])
        case .custom(let name, let make):
            (format, statement) = (name, make(authData, hash))
        }
        return Registration(
            clientDataJSON: clientData, authenticatorData: authData,
            attestationObject: Self.attestationObject(format: format, statement: statement, authenticatorData: authData))
    }

    public struct Assertion {
        public var clientDataJSON: [UInt8]
        public var authenticatorData: [UInt8]
        public var signature: [UInt8]

        public init(clientDataJSON: [UInt8], authenticatorData: [UInt8], signature: [UInt8]) {
            self.clientDataJSON = clientDataJSON
            self.authenticatorData = authenticatorData
            self.signature = signature
        }
    }

    public func assert(
        challenge: [UInt8], flags: AuthenticatorFlags = [.userPresent, .userVerified], signCount: UInt32 = 0,
        extensions: CBORValue? = nil, clientDataJSON: [UInt8]? = nil
    ) -> Assertion {
        let clientData = clientDataJSON ?? Self.clientData(type: "webauthn.get", challenge: challenge, origin: origin)
        let authData = authenticatorData(flags: flags, signCount: signCount, attested: false, extensions: extensions)
        return Assertion(
            clientDataJSON: clientData, authenticatorData: authData,
            signature: sign(authData + Array(SHA256.hash(data: clientData))))
    }
}
