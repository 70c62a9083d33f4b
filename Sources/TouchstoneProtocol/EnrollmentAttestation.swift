/// The `attestation` member of `POST /v1/enrollments/{enrollmentId}/complete`: the platform's proof that the new keys
/// live in secure hardware (Android key attestation) or were made by the genuine app (Apple App Attest).
///
/// Binary values stay base64url text here: one that does not decode is a failed attestation (`attestation_invalid`),
/// not a malformed request. A member of the wrong JSON shape or an unknown `format` fails to decode (`invalid_request`).
public enum EnrollmentAttestation: Codable, Sendable, Equatable {
    /// `{format: "android-key", deviceKey: […], biometricKey: […] | null}`: each key's certificate chain, leaf first,
    /// each certificate's DER in base64url, as `KeyStore.getCertificateChain` returns it.
    case androidKey(deviceKey: [String], biometricKey: [String]?)
    /// `{format: "apple-appattest", keyId, attestationObject}` (base64url): an App Attest attestation whose
    /// `clientDataHash` is ``AppAttestClientData``'s.
    case appleAppAttest(keyId: String, attestationObject: String)

    /// The `format` of Android key attestation.
    public static let androidKeyFormat = "android-key"
    /// The `format` of Apple App Attest.
    public static let appleAppAttestFormat = "apple-appattest"

    private enum CodingKeys: String, CodingKey {
        case format, deviceKey, biometricKey, keyId, attestationObject
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let format = try container.decode(String.self, forKey: .format)
        switch format {
        case Self.androidKeyFormat:
            self = .androidKey(
                deviceKey: try container.decode([String].self, forKey: .deviceKey),
                biometricKey: try container.decodeIfPresent([String].self, forKey: .biometricKey))
        case Self.appleAppAttestFormat:
            self = .appleAppAttest(
                keyId: try container.decode(String.self, forKey: .keyId),
                attestationObject: try container.decode(String.self, forKey: .attestationObject))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .format, in: container, debugDescription: "unknown attestation format \(format)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .androidKey(let deviceKey, let biometricKey):
            try container.encode(Self.androidKeyFormat, forKey: .format)
            try container.encode(deviceKey, forKey: .deviceKey)
            try container.encode(biometricKey, forKey: .biometricKey)
        case .appleAppAttest(let keyId, let attestationObject):
            try container.encode(Self.appleAppAttestFormat, forKey: .format)
            try container.encode(keyId, forKey: .keyId)
            try container.encode(attestationObject, forKey: .attestationObject)
        }
    }
}
