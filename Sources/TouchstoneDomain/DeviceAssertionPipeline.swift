import Foundation
import TouchstoneCrypto
import TouchstoneProtocol
import TouchstoneStorage

/// The one way a device assertion — a login, or a decision on an inbox item — is judged, whichever service acts on it:
/// 1. ``verify(_:device:as:)``: the token is verified with a key its device registered (signature, `typ`, audience,
///    issuer, lifetime), and a PIN comes with the device key and only with it;
/// 2. ``policyRefusal(_:app:)``: the acting app's policy — biometrics allowed, the device compromised (as the
///    assertion claims, or as stored), its attestation;
/// 3. ``checkPIN(_:)``: the PIN, against the hash read with the device;
/// 4. the transaction that writes the action holds the signer (``SigningDevice``: the PIN applied, the device still
///    active and still holding the key), and ``refusal(_:)`` names what it refused.
///
/// How the token is spent is the caller's: a login consumes its challenge in its transaction, a decision is spent
/// through ``DeviceTokenGate``.
struct DeviceAssertionPipeline: Sendable {
    let gate: DeviceTokenGate
    let pins: PINCheck

    /// A token whose signature and claims verified against its device, not acted on yet.
    struct Verified<Claims: UserVerifiedClaims>: Sendable {
        let token: DeviceTokenGate.Verified<Claims>
        /// The device as read before the signature was checked.
        let device: DeviceRecord
        let signedWithBiometricKey: Bool
        let keyThumbprint: String

        var claims: Claims { token.claims }
        /// How the user was verified: the fingerprint, or the PIN.
        var amr: [AuthenticationMethod] { [claims.pin == nil ? .biometric : .pin] }

        /// The signer the acting transaction must still find, with the checked PIN.
        func signer(pin: PINAttempt?) -> SigningDevice {
            SigningDevice(
                deviceId: device.id, signedWithBiometricKey: signedWithBiometricKey, keyThumbprint: keyThumbprint, pin: pin)
        }
    }

    /// Verifies `token` with the key of `device` that its `kid` names.
    /// - Throws: 401 `invalid_assertion` for an unregistered key (a revoked biometric key included), a token that does
    ///   not verify, or a PIN with the biometric key (none with the device key); the detail goes to the log.
    func verify<Claims: UserVerifiedClaims>(_ token: UnverifiedDeviceToken, device: DeviceRecord, as type: Claims.Type)
        throws -> Verified<Claims>
    {
        guard let (key, isBiometric) = device.registeredKey(kid: token.kid) else { throw ProblemError.invalidAssertion }
        let verified = try gate.verify(token, key: key, as: type, issuer: device.id, invalid: .invalidAssertion)
        guard verified.claims.verify(signedWithBiometricKey: isBiometric) else { throw ProblemError.invalidAssertion }
        return Verified(token: verified, device: device, signedWithBiometricKey: isBiometric, keyThumbprint: token.kid)
    }

    /// The refusal `app`'s policy makes of `assertion`, in this order; `nil` when it may go on to the PIN.
    /// - 403 `biometry_not_allowed`: signed with the biometric key for an app that forbids biometrics;
    /// - 403 `device_compromised`: the assertion says the device is compromised, or it is stored so (from its
    ///   enrolment or an earlier assertion), and the app refuses compromised devices;
    /// - 403 `attestation_required`: the app requires attestation and the device's does not prove a build it allows;
    /// - 401 `invalid_assertion`: a PIN for a device that has none.
    func policyRefusal<Claims>(_ assertion: Verified<Claims>, app: AppRecord) -> ProblemError? {
        let (claims, device, policy) = (assertion.claims, assertion.device, app.policy)
        if claims.pin == nil, !policy.biometricAllowed {
            return ProblemError(.biometryNotAllowed, detail: "This app's policy does not allow biometrics: use the PIN.")
        }
        if claims.reportsCompromised || device.compromised, policy.refuseCompromisedDevices {
            return .deviceCompromised
        }
        guard app.admitsAttestation(of: device) else { return Self.attestationRequired }
        if claims.pin != nil, device.pinHash == nil { return .invalidAssertion }
        return nil
    }

    /// 403 `attestation_required` for a device whose attestation does not satisfy the acting app
    /// (``AppRecord/admitsAttestation(of:)``): at logins and decisions here, at refreshes in ``SessionService``.
    static let attestationRequired = ProblemError(
        .attestationRequired, detail: "This app accepts only devices with a hardware key attestation it allows.")

    /// Checks the assertion's PIN, if it carries one (bcrypt): what the acting transaction applies.
    func checkPIN<Claims>(_ assertion: Verified<Claims>) async throws -> PINAttempt? {
        guard let pin = assertion.claims.pin else { return nil }
        return try await pins.check(pin, device: assertion.device)
    }

    /// The refusal for what the acting transaction found of the signer.
    func refusal(_ refused: SigningDevice.Refusal) -> ProblemError {
        switch refused {
        case .deviceRevoked: .deviceRevoked
        case .keyRemoved: .invalidAssertion
        case .pin(let outcome): pins.refusal(outcome)
        }
    }
}
