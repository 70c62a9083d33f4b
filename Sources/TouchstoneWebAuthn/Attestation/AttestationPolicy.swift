import X509

/// Which attestations a relying party accepts (WebAuthn §7.1 steps 21–24) and the roots it trusts.
///
/// Two presets cover the usual cases: ``notRequired`` for passkeys, where provenance does not matter, and
/// ``required(trustAnchors:formats:)`` when only authenticators chaining to known roots may register. Every
/// statement is verified cryptographically either way.
public struct AttestationPolicy: Sendable {
    /// The preference sent to the browser in the creation options.
    public var conveyance: AttestationConveyancePreference
    /// The formats accepted; any other `fmt` fails with `unsupported_attestation_format`.
    public var formats: Set<AttestationFormat>
    /// The trust anchors for each format (step 23). A trust path must chain to one of them at the ceremony's time.
    public var trustAnchors: [AttestationFormat: [Certificate]]
    /// Whether `none` attestation is acceptable (step 24).
    public var acceptsNoAttestation: Bool
    /// Whether self attestation is acceptable (step 24).
    public var acceptsSelfAttestation: Bool
    /// Whether an attestation that verifies but does not chain to a trust anchor is accepted as if it were self
    /// attestation (under step 24). The result then reports ``AttestationType/selfAttestation``.
    public var acceptsUntrustedAttestation: Bool
    /// android-key: read `origin` and `purpose` from the union of `softwareEnforced` and `teeEnforced`, accepting
    /// keys that no trusted execution environment vouches for. Off by default: `teeEnforced` only.
    public var insecureAcceptsSoftwareEnforcedAndroidKeys: Bool

    /// A policy built member by member; prefer the presets.
    /// - ⚠️ `acceptsUntrustedAttestation` takes effect only together with `acceptsSelfAttestation`.
    public init(
        conveyance: AttestationConveyancePreference,
        formats: Set<AttestationFormat> = Set(AttestationFormat.allCases),
        trustAnchors: [AttestationFormat: [Certificate]] = [:],
        acceptsNoAttestation: Bool,
        acceptsSelfAttestation: Bool,
        acceptsUntrustedAttestation: Bool,
        insecureAcceptsSoftwareEnforcedAndroidKeys: Bool = false
    ) {
        self.conveyance = conveyance
        self.formats = formats
        self.trustAnchors = trustAnchors
        self.acceptsNoAttestation = acceptsNoAttestation
        self.acceptsSelfAttestation = acceptsSelfAttestation
        self.acceptsUntrustedAttestation = acceptsUntrustedAttestation
        self.insecureAcceptsSoftwareEnforcedAndroidKeys = insecureAcceptsSoftwareEnforcedAndroidKeys
    }

    /// Passkeys: ask for no attestation, accept none and self attestation, and accept verified attestations from
    /// any root as self attestation. Provenance is not established; the credential is still bound to its key.
    public static let notRequired = AttestationPolicy(
        conveyance: .none, acceptsNoAttestation: true, acceptsSelfAttestation: true, acceptsUntrustedAttestation: true)

    /// Ask for direct attestation and accept only statements whose trust path chains to one of `trustAnchors`
    /// (the same anchors for every format in `formats`); none and self attestation are refused.
    /// - ⚠️ Give each format the roots of its own ecosystem when they differ (Apple's WebAuthn root for `apple`,
    ///   Google's hardware attestation roots for `android-key`, FIDO metadata roots for `packed`): set
    ///   ``trustAnchors`` per format.
    public static func required(
        trustAnchors: [Certificate], formats: Set<AttestationFormat> = [.packed, .tpm, .androidKey, .fidoU2F, .apple]
    ) -> AttestationPolicy {
        AttestationPolicy(
            conveyance: .direct, formats: formats,
            trustAnchors: Dictionary(uniqueKeysWithValues: formats.map { ($0, trustAnchors) }),
            acceptsNoAttestation: false, acceptsSelfAttestation: false, acceptsUntrustedAttestation: false)
    }

    /// ``required(trustAnchors:formats:)`` with the anchors given as DER certificates.
    /// - Throws: ``WebAuthnError`` with code `invalid_configuration` when a certificate does not parse.
    public static func required(
        trustAnchorsDER: [[UInt8]], formats: Set<AttestationFormat> = [.packed, .tpm, .androidKey, .fidoU2F, .apple]
    ) throws(WebAuthnError) -> AttestationPolicy {
        var anchors: [Certificate] = []
        for der in trustAnchorsDER {
            do {
                anchors.append(try Certificate(derEncoded: der))
            } catch {
                throw WebAuthnError(.invalidConfiguration, "trust anchor does not parse: \(error)")
            }
        }
        return required(trustAnchors: anchors, formats: formats)
    }
}
