import Crypto
import Foundation
import TouchstoneAttestation
import TouchstoneCrypto
import TouchstoneProtocol
import TouchstoneWebAuthn

/// The parsers that read bytes a stranger chose, each as one fuzz target: `run` hands them one input and keeps
/// nothing. A target passes an input when `run` returns, whatever the parser decided; a crash, a trap (overflow, an
/// index out of range) or, under AddressSanitizer, a memory error is a finding.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// The strict CTAP2 CBOR decoder, in canonical and in lenient map order.
    case cbor
    /// A COSE key, then a signature check with it.
    case coseKey = "cose-key"
    /// WebAuthn authenticator data, and the credential key it carries.
    case authenticatorData = "authenticator-data"
    /// A WebAuthn attestation object and its statement's verification procedure (packed, TPM, android-key, apple,
    /// fido-u2f, none), as registration runs it.
    case attestationObject = "attestation-object"
    /// Android's KeyDescription extension, by both of its readers (device attestation and WebAuthn android-key).
    case androidKeyDescription = "android-key-description"
    /// An App Attest attestation object (CBOR, the x5c certificates) and its authenticator data. The verifier
    /// behind them (swift-certificates' chain validation) is left out: it ran at under 2,000 inputs a second.
    case appAttestObject = "app-attest-object"
    /// A device-signed token (compact JWS). The first byte's lowest bit chooses: clear, the rest is the token as sent
    /// (its signature fails); set, the rest is header and payload JSON that the harness encodes and signs with its own
    /// key, so that the header and claims checks behind the signature are reached. Its next two bits choose the
    /// claims type.
    case deviceToken = "device-token"
    /// A TouchIDAuth key: base64 of a PKCS#1 PEM.
    case legacyPEM = "legacy-pem"
    /// The JSON bodies of the public endpoints, decoded as the server decodes them. The first byte chooses the
    /// body type (modulo their number); the rest is the body.
    case requestBodies = "request-bodies"
    /// What push services and Google's token endpoint answer (APNs' `reason`, FCM's error, the OAuth token and error
    /// bodies) and a `Retry-After` value, each reader over the same bytes.
    case pushAnswers = "push-answers"

    /// Runs one input through the target's parser.
    /// - Throws: only when the harness itself cannot be set up (its own device key), never because of an input.
    public func run(_ input: [UInt8]) throws {
        switch self {
        case .cbor: Self.cbor(input)
        case .coseKey: Self.coseKey(input)
        case .authenticatorData: Self.authenticatorData(input)
        case .attestationObject: Self.attestationObject(input)
        case .androidKeyDescription: Self.androidKeyDescription(input)
        case .appAttestObject: Self.appAttestObject(input)
        case .deviceToken: try Self.deviceToken(input)
        case .legacyPEM: Self.legacyPEM(input)
        case .requestBodies: Self.requestBodies(input)
        case .pushAnswers: Self.pushAnswers(input)
        }
    }

    private static func cbor(_ input: [UInt8]) {
        keep(try? CBORDecoder().decode(input))
        keep(try? CBORDecoder(requiresCanonicalMapOrder: false).decode(input))
    }

    private static func coseKey(_ input: [UInt8]) {
        guard let key = try? COSEKey(bytes: input) else { return }
        keep(key.isValidSignature(Array(repeating: 1, count: 64), for: input))
    }

    private static func authenticatorData(_ input: [UInt8]) {
        guard let data = try? AuthenticatorData(bytes: input) else { return }
        keep(try? data.attestedCredentialData?.credentialPublicKey())
    }

    private static let clientDataHash = Array(SHA256.hash(data: Data("fuzz".utf8)))

    private static func attestationObject(_ input: [UInt8]) {
        guard let object = try? AttestationObject(bytes: input),
            let credential = object.authenticatorData.attestedCredentialData,
            let key = try? credential.credentialPublicKey(),
            let format = AttestationFormat(rawValue: object.format)
        else { return }
        keep(try? AttestationStatementVerifier.verify(
            format,
            AttestationInput(
                statement: object.statement, authenticatorData: object.authenticatorData, credential: credential,
                credentialKey: key, clientDataHash: clientDataHash, policy: .notRequired)))
    }

    private static func androidKeyDescription(_ input: [UInt8]) {
        keep(try? KeyDescription(derEncoded: input))
        keep(try? AndroidKeyDescription(derEncoded: input[...]))
    }

    private static func appAttestObject(_ input: [UInt8]) {
        guard let object = try? AppAttestObject(bytes: input) else { return }
        keep(try? AppAttestAuthenticatorData.parse(object.authenticatorData))
    }

    /// The harness's own device: an Ed25519 key, so that signing each input costs little, registered as a device key.
    private struct HarnessDevice {
        let key = Curve25519.Signing.PrivateKey()
        let publicKey: DevicePublicKey

        init() throws {
            publicKey = try DevicePublicKey(
                jwk: PublicJWK(kty: "OKP", crv: "Ed25519", x: Base64URL.encode(key.publicKey.rawRepresentation)))
        }
    }

    private static let harnessDevice = Result { try HarnessDevice() }
    private static let tokenRules = DeviceTokenRules(audience: "https://touchstone.example")

    private static func deviceToken(_ input: [UInt8]) throws {
        let device = try harnessDevice.get()
        guard let first = input.first else { return }
        let compact: String
        if first & 1 == 1 {
            // The rest is header JSON, a newline, payload JSON; `KID` in the header stands for this key's thumbprint.
            let rest = input.dropFirst()
            let newline = rest.firstIndex(of: 0x0A) ?? rest.endIndex
            let header = String(decoding: rest[..<newline], as: UTF8.self)
                .replacingOccurrences(of: "KID", with: device.publicKey.thumbprint)
            let payload = Data(rest[newline...].dropFirst())
            let signingInput = Base64URL.encode(Data(header.utf8)) + "." + Base64URL.encode(payload)
            guard let signature = try? device.key.signature(for: Data(signingInput.utf8)) else { return }
            compact = signingInput + "." + Base64URL.encode(signature)
        } else {
            compact = String(decoding: input.dropFirst(), as: UTF8.self)
        }
        guard let token = try? UnverifiedDeviceToken(compact) else { return }
        keep(token.digest)
        let now = Date(timeIntervalSince1970: 1_750_000_000)
        // The claims type by the first byte's other bits: one signature check per input.
        switch (first >> 1) & 3 {
        case 0: keep(try? device.publicKey.verify(token, as: AssertionClaims.self, issuer: token.issuer, rules: tokenRules, now: now))
        case 1: keep(try? device.publicKey.verify(token, as: ProofClaims.self, issuer: token.issuer, rules: tokenRules, now: now))
        case 2: keep(try? device.publicKey.verify(token, as: RequestClaims.self, issuer: token.issuer, rules: tokenRules, now: now))
        default: keep(try? device.publicKey.verify(token, as: DecisionClaims.self, issuer: token.issuer, rules: tokenRules, now: now))
        }
    }

    private static func legacyPEM(_ input: [UInt8]) {
        keep(try? LegacyRSAPublicKey(base64PEM: String(decoding: input, as: UTF8.self)))
    }

    /// The body types of the endpoints an anonymous caller (or one with only a token) can post to.
    private static var bodies: [any Decodable.Type] {
        [
            CreateAccountRequest.self, PasswordLoginRequest.self, EnrollmentStartRequest.self, EnrollmentCompletion.self,
            ChallengeRequest.self, AssertionLoginRequest.self, RefreshRequest.self, WebLoginRequest.self,
            PasskeyAuthenticationStart.self, RegistrationResponseJSON.self, AuthenticationResponseJSON.self,
            IntrospectionRequest.self, PasswordRequest.self, PINRequest.self, DecisionRequest.self,
            ConfirmationRequest.self, SignInRequest.self,
        ]
    }

    private static func requestBodies(_ input: [UInt8]) {
        guard let first = input.first else { return }
        let type = bodies[Int(first) % bodies.count]
        keep(try? WireCoding.decoder().decode(type, from: Data(input.dropFirst())))
    }

    private static func pushAnswers(_ input: [UInt8]) {
        keep(PushServiceAnswer.apnsReason(input))
        keep(PushServiceAnswer.fcmError(input))
        keep(PushServiceAnswer.accessToken(input))
        keep(PushServiceAnswer.oauthError(input))
        keep(PushServiceAnswer.retryAfterSeconds(String(decoding: input, as: UTF8.self)))
    }

    /// Hands a parser's result to code the optimizer cannot see into, so that a release build cannot drop a parse
    /// whose result is unused.
    @inline(never) @_optimize(none)
    private static func keep<T>(_ value: T) {}
}
