#if canImport(LocalAuthentication)
import CryptoKit
import Foundation
import LocalAuthentication
import Security
import TouchstoneCrypto
import TouchstoneProtocol

/// A device key in the Secure Enclave (P-256, ES256): its private half never leaves the secure hardware.
///
/// The key is kept as its `dataRepresentation`, an opaque handle that only this device's Secure Enclave can use, and
/// the CryptoKit key is rebuilt for each signature. A *device key* (`.privateKeyUsage`) signs without any prompt. A
/// *biometric key* (`.privateKeyUsage` + `.biometryCurrentSet`: enrolling another finger or face invalidates it)
/// signs through its ``LocalAuthenticationVerifier``, which lends the context of the verification that just
/// succeeded, so the user sees one prompt.
///
/// Tokens are compact JWS with the header `{"alg":"ES256","kid":<thumbprint>,"typ":<the claims' type>}`, assembled by
/// TouchstoneCrypto (``DevicePublicKey/signedToken(_:signature:)``); this type only makes the ES256 signature:
/// CryptoKit's `signature(for:)` hashes the signing input with SHA-256 and returns r‖s (`rawRepresentation`).
///
/// - ⚠️ `dataRepresentation` is the key's only handle: keep it in the keychain with a `…ThisDeviceOnly`
///   accessibility (``KeychainKeyStore`` does). It is useless on another device, but anyone who can read it on this
///   device can use the device key.
public struct SecureEnclaveKey: DeviceKey {
    public let publicKey: DevicePublicKey
    /// The Secure Enclave's handle of the private key (not the key itself).
    public let dataRepresentation: Data
    /// For a biometric key, the verifier whose verification authorises each signature; `nil` for a device key.
    let authorizer: LocalAuthenticationVerifier?

    /// Whether each signature needs a biometric (the key was made with `.biometryCurrentSet`).
    public var requiresBiometry: Bool { authorizer != nil }

    /// Wraps a key the Secure Enclave made earlier, from its `dataRepresentation`.
    /// - Parameter authorizer: the verifier of a biometric key; `nil` for a device key.
    /// - Throws: when the handle is not a Secure Enclave P-256 key of this device.
    init(dataRepresentation: Data, authorizer: LocalAuthenticationVerifier?) throws {
        let key = try SecureEnclave.P256.Signing.PrivateKey(
            dataRepresentation: dataRepresentation, authenticationContext: nil)
        let point = key.publicKey.rawRepresentation
        self.dataRepresentation = dataRepresentation
        self.authorizer = authorizer
        self.publicKey = try DevicePublicKey(
            jwk: PublicJWK(
                kty: "EC", crv: "P-256", x: Base64URL.encode(point.prefix(32)), y: Base64URL.encode(point.suffix(32))))
    }

    /// Makes a new key in the Secure Enclave. Nothing is stored: keep `dataRepresentation` to keep the key.
    /// - Parameter authorizer: for a biometric key (`.biometryCurrentSet`), the verifier that authorises its
    ///   signatures; `nil` for a device key (`.privateKeyUsage` only).
    /// - Throws: ``TouchstoneError`` `biometryNotAvailable` on a device without a Secure Enclave (the Simulator, some
    ///   Macs).
    static func generate(authorizer: LocalAuthenticationVerifier?) throws -> SecureEnclaveKey {
        guard SecureEnclave.isAvailable else {
            throw TouchstoneError(.biometryNotAvailable, "this device has no Secure Enclave; use the software platform")
        }
        let flags: SecAccessControlCreateFlags =
            authorizer == nil ? [.privateKeyUsage] : [.privateKeyUsage, .biometryCurrentSet]
        var error: Unmanaged<CFError>?
        guard
            let access = SecAccessControlCreateWithFlags(
                kCFAllocatorDefault, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, flags, &error)
        else {
            let reason = error.map { String(describing: $0.takeRetainedValue()) } ?? "unknown error"
            throw TouchstoneError(.biometryNotAvailable, "cannot describe the key's access control: \(reason)")
        }
        let key: SecureEnclave.P256.Signing.PrivateKey
        do {
            key = try SecureEnclave.P256.Signing.PrivateKey(
                compactRepresentable: false, accessControl: access, authenticationContext: nil)
        } catch {
            throw TouchstoneError(.biometryNotAvailable, "the Secure Enclave cannot make a key: \(error)")
        }
        return try SecureEnclaveKey(dataRepresentation: key.dataRepresentation, authorizer: authorizer)
    }

    /// Signs claims as a compact ES256 JWS; a biometric key uses (or asks for) a verification first.
    /// - Throws: ``TouchstoneError``: for a biometric key what ``LocalAuthenticationVerifier/verify(prompt:)``
    ///   throws, or `biometryNotAvailable` when the key was invalidated; `notRegistered` when the Secure Enclave
    ///   refuses the device key.
    public func sign<Claims: DeviceTokenClaims>(_ claims: Claims) async throws -> String {
        let keyData = dataRepresentation
        if let authorizer {
            return try await publicKey.signedToken(claims) { signingInput in
                try await authorizer.signature(of: signingInput, keyData: keyData)
            }
        }
        return try await publicKey.signedToken(claims) { signingInput in
            do {
                return try Self.signature(of: signingInput, keyData: keyData, context: nil)
            } catch {
                throw TouchstoneError(.notRegistered, "the Secure Enclave refused the device key; register again: \(error)")
            }
        }
    }

    /// The ES256 signature (r‖s) of `signingInput` by the Secure Enclave key `keyData`, under `context`.
    ///
    /// Without an evaluated context, a key that needs a biometric makes the system prompt by itself.
    static func signature(of signingInput: [UInt8], keyData: Data, context: LAContext?) throws -> [UInt8] {
        let key = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: keyData, authenticationContext: context)
        return Array(try key.signature(for: signingInput).rawRepresentation)
    }
}
#endif
