import Foundation
import Testing
import X509

/// `Vectors/manifest.json`: every attestation vector with what it must give.
struct VectorManifest: Decodable {
    /// One Android key attestation chain.
    struct Android: Decodable, Sendable, CustomTestStringConvertible {
        var name: String
        /// The PEM chain, leaf first.
        var chain: String
        /// Upstream's expected parse of the leaf's KeyDescription, when there is one.
        var expected: String?
        var verifyAt: String
        /// A later instant at which the chain still verifies, its own expired copy of the root notwithstanding.
        var stillValidAt: String?
        /// `valid` or the code the verifier refuses the chain with.
        var verification: String
        /// `valid` or the code parsing the leaf's extension alone gives.
        var keyDescription: String
        var deviceRefusals: [String]?
        var biometricRefusals: [String]?
        /// `strongBox` or `trustedEnvironment` when the device key passes the policy.
        var storage: String?
        /// The vector's challenge and app (base64), for the policy.
        var challenge: String?
        var application: Application?
        /// Add the chain's own root as an insecure anchor before the policy runs.
        var trustChainRootInsecurely: Bool?
        var deviceLocked: Bool?

        struct Application: Decodable, Sendable {
            var package: String
            var signature: String
        }

        var testDescription: String { name }
    }

    /// One App Attest attestation.
    struct Apple: Decodable, Sendable, CustomTestStringConvertible {
        var name: String
        var file: String
        /// The yaml line or JSON member that holds the base64 object; the whole file when neither is given.
        var yamlField: String?
        var jsonField: String?
        var keyId: String
        var clientData: String
        /// Whether the clientDataHash is SHA-256(clientData) (else clientData itself).
        var hashClientData: Bool
        var appId: String
        var environment: String
        var verifyAt: String

        var testDescription: String { name }
    }

    var android: [Android]
    var apple: [Apple]

    static func load() throws -> VectorManifest {
        try JSONDecoder().decode(VectorManifest.self, from: try Vectors.data("manifest.json"))
    }
}
