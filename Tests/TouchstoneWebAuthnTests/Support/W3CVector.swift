import Testing

/// One entry of `webauthn/w3c-l3-spec-vectors.json` (WebAuthn Level 3 §16.2–§16.16), hex values decoded.
struct W3CVector: Decodable, Sendable, CustomTestStringConvertible {
    struct Registration: Decodable, Sendable {
        let challenge: String
        let clientDataJSON: String
        let attestationObject: String
    }

    struct Authentication: Decodable, Sendable {
        let challenge: String
        let authenticatorData: String
        let clientDataJSON: String
        let signature: String
    }

    let section: String
    let title: String
    let format: String
    let alg: Int
    let aaguid: String
    let credentialId: String
    let crossOrigin: Bool
    let topOrigin: String?
    let registration: Registration
    let authentication: Authentication

    var testDescription: String { "§\(section) \(title)" }

    static let all: [W3CVector] = (try? Vectors.decode([W3CVector].self, "webauthn/w3c-l3-spec-vectors.json")) ?? []

    static func section(_ number: String) -> W3CVector {
        guard let vector = all.first(where: { $0.section == number }) else { preconditionFailure("no §\(number)") }
        return vector
    }

    /// The §16.1 attestation trust root, DER.
    static let rootCertificate: [UInt8] = {
        struct Root: Decodable { let attestation_ca_cert: String }
        guard let root = try? Vectors.decode(Root.self, "webauthn/w3c-l3-attestation-root-cert.json") else { return [] }
        return Hex.bytes(root.attestation_ca_cert)
    }()

    var registrationChallenge: [UInt8] { Hex.bytes(registration.challenge) }
    var registrationClientData: [UInt8] { Hex.bytes(registration.clientDataJSON) }
    var attestationObject: [UInt8] { Hex.bytes(registration.attestationObject) }
    var authenticationChallenge: [UInt8] { Hex.bytes(authentication.challenge) }
    var authenticatorData: [UInt8] { Hex.bytes(authentication.authenticatorData) }
    var authenticationClientData: [UInt8] { Hex.bytes(authentication.clientDataJSON) }
    var signature: [UInt8] { Hex.bytes(authentication.signature) }
    var credentialID: [UInt8] { Hex.bytes(credentialId) }

    /// Whether the registration / assertion authenticator data has UV set.
    var registrationUV: Bool { !Self.noUVRegistrations.contains(section) }
    var assertionUV: Bool { !Self.noUVAssertions.contains(section) }
    /// From the vectors README.
    static let noUVRegistrations: Set<String> = ["16.2", "16.5", "16.6", "16.8", "16.11", "16.12", "16.15", "16.16"]
    static let noUVAssertions: Set<String> = ["16.2", "16.3", "16.9", "16.10", "16.11", "16.14", "16.15", "16.16"]
}
