/// What a device's attestation proved at enrolment, as `GET /v1/devices` and `admin devices` show it.
public enum DeviceAttestationKind: String, Codable, Sendable, Equatable, CaseIterable {
    /// Android key attestation, both keys in a StrongBox secure element.
    case androidStrongBox = "android-strongbox"
    /// Android key attestation, the keys in a Trusted Execution Environment (at least one of them).
    case androidTEE = "android-tee"
    /// Apple App Attest: the genuine app on a genuine Apple device made the keys.
    case appleAppAttest = "apple-appattest"
}
