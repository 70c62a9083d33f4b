import Crypto
import Foundation
import Testing
import TouchstoneCrypto
import TouchstoneProtocol

/// `DevicePublicKey.signedToken`: JWS whose signature comes from secure hardware, here a software P-256 key.
@Suite struct SignedTokenTests {
    static let audience = "http://localhost:8080"

    static func claims(now: Date = Date()) -> ProofClaims {
        let iat = Int64(now.timeIntervalSince1970)
        return ProofClaims(iss: "enrolment", aud: audience, iat: iat, exp: iat + 60, nonce: "challenge")
    }

    @Test func aHardwareSignatureMakesATokenTheServerAccepts() async throws {
        let privateKey = P256.Signing.PrivateKey()
        let key = try await DeviceSigningKey(.p256(privateKey))
        let token = try await key.publicKey.signedToken(Self.claims()) { input in
            Array(try privateKey.signature(for: Data(input)).rawRepresentation)
        }
        let verified = try key.publicKey.verify(
            UnverifiedDeviceToken(token), as: ProofClaims.self, issuer: "enrolment",
            rules: DeviceTokenRules(audience: Self.audience), now: Date())
        #expect(verified.nonce == "challenge")
        let header = try #require(Base64URL.decode(String(token.split(separator: ".")[0])))
        let fields = try #require(try JSONSerialization.jsonObject(with: header) as? [String: String])
        #expect(fields == ["alg": "ES256", "kid": key.publicKey.thumbprint, "typ": "touchstone-proof+jwt"])
    }

    @Test func aSignatureThatDoesNotVerifyIsRefused() async throws {
        let privateKey = P256.Signing.PrivateKey()
        let key = try await DeviceSigningKey(.p256(privateKey))
        await #expect(throws: KeyError.self) {
            // DER instead of r‖s, and a signature by another key.
            try await key.publicKey.signedToken(Self.claims()) { input in
                Array(try privateKey.signature(for: Data(input)).derRepresentation)
            }
        }
        await #expect(throws: KeyError.self) {
            try await key.publicKey.signedToken(Self.claims()) { input in
                Array(try P256.Signing.PrivateKey().signature(for: Data(input)).rawRepresentation)
            }
        }
    }

    @Test func errorsOfTheSignerComeThroughUnchanged() async throws {
        struct Refused: Error {}
        let key = try await DeviceSigningKey.generateP256()
        await #expect(throws: Refused.self) {
            try await key.publicKey.signedToken(Self.claims()) { _ in throw Refused() }
        }
    }
}
