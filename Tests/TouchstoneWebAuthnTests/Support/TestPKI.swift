import Crypto
import Foundation
import SwiftASN1
import X509
@testable import TouchstoneWebAuthn
import TouchstoneWebAuthnTestSupport

/// A throwaway certificate authority that issues attestation certificates with any subject, key and extensions, so
/// that each certificate requirement of WebAuthn §8 can be broken on its own.
struct TestPKI {
    let rootKey: P256.Signing.PrivateKey
    let root: Certificate
    let rootName: DistinguishedName

    static let notBefore = Date(timeIntervalSince1970: 1_700_000_000)
    static let notAfter = Date(timeIntervalSince1970: 1_900_000_000)

    init(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        do {
            rootKey = try P256.Signing.PrivateKey(rawRepresentation: rng.bytes(32))
            rootName = try DistinguishedName {
                CountryName("AA")
                OrganizationName("Touchstone tests")
                CommonName("Test attestation root \(seed)")
            }
            root = try Certificate(
                version: .v3, serialNumber: .init(bytes: rng.bytes(8)), publicKey: .init(rootKey.publicKey),
                notValidBefore: Self.notBefore, notValidAfter: Self.notAfter, issuer: rootName, subject: rootName,
                signatureAlgorithm: .ecdsaWithSHA256,
                extensions: try Certificate.Extensions {
                    Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                    Critical(KeyUsage(keyCertSign: true))
                },
                issuerPrivateKey: .init(rootKey))
        } catch {
            preconditionFailure("\(error)")
        }
    }

    /// The subject that §8.2.1 asks of packed attestation certificates.
    static func packedSubject(
        country: String = "AA", organization: String = "Touchstone tests", unit: String = "Authenticator Attestation",
        commonName: String? = "Test authenticator"
    ) throws -> DistinguishedName {
        var rdns: [RelativeDistinguishedName] = [
            RelativeDistinguishedName(try .init(type: .RDNAttributeType.countryName, printableString: country)),
            RelativeDistinguishedName(.init(type: .RDNAttributeType.organizationName, utf8String: organization)),
            RelativeDistinguishedName(.init(type: .RDNAttributeType.organizationalUnitName, utf8String: unit)),
        ]
        if let commonName { rdns.append(RelativeDistinguishedName(.init(type: .RDNAttributeType.commonName, utf8String: commonName))) }
        return DistinguishedName(rdns)
    }

    /// `id-fido-gen-ce-aaguid` holding `aaguid`.
    static func aaguidExtension(_ aaguid: [UInt8], critical: Bool = false) -> Certificate.Extension {
        Certificate.Extension(oid: [1, 3, 6, 1, 4, 1, 45724, 1, 1, 4], critical: critical, value: ArraySlice([0x04, UInt8(aaguid.count)] + aaguid))
    }

    static func notCA() throws -> Certificate.Extension {
        try Certificate.Extension(BasicConstraints.notCertificateAuthority, critical: true)
    }

    /// Issues a certificate for `publicKey`, signed by the root (or by `issuer`).
    func issue(
        publicKey: Certificate.PublicKey, subject: DistinguishedName, extensions: [Certificate.Extension],
        version: Certificate.Version = .v3, notBefore: Date = notBefore, notAfter: Date = notAfter,
        issuer: (name: DistinguishedName, key: P256.Signing.PrivateKey)? = nil
    ) throws -> Certificate {
        try Certificate(
            version: version, serialNumber: .init(), publicKey: publicKey, notValidBefore: notBefore,
            notValidAfter: notAfter, issuer: issuer?.name ?? rootName, subject: subject,
            signatureAlgorithm: .ecdsaWithSHA256, extensions: try Certificate.Extensions(extensions),
            issuerPrivateKey: .init(issuer?.key ?? rootKey))
    }

    static func der(_ certificate: Certificate) -> [UInt8] {
        var serializer = DER.Serializer()
        do {
            try serializer.serialize(certificate)
        } catch {
            preconditionFailure("\(error)")
        }
        return serializer.serializedBytes
    }

    /// A policy that requires chains to this root, at the tests' time.
    var policy: AttestationPolicy { .required(trustAnchors: [root]) }

    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// Registers `authenticator` with an attestation statement of `format`, under this PKI's policy.
    func register(
        _ authenticator: SoftAuthenticator, format: String, policy: AttestationPolicy? = nil, now: Date = now,
        statement: @escaping ([UInt8], [UInt8]) -> CBORValue
    ) async throws -> VerifiedRegistration {
        let challenge = [UInt8](repeating: 0x33, count: 32)
        let registration = authenticator.register(challenge: challenge, attestation: .custom(format: format, statement: statement))
        return try await Fixtures.registrationVerifier(policy: policy ?? self.policy).verify(
            clientDataJSON: registration.clientDataJSON, attestationObject: registration.attestationObject,
            expecting: RegistrationExpectations(challenge: challenge, userHandle: Fixtures.userHandle),
            now: now)
    }
}
