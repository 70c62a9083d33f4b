import Crypto
import Foundation
import TouchstoneCrypto
import TouchstoneProtocol
import TouchstoneStorage
import _CryptoExtras

/// The auth0/TouchIDAuth protocol (`/pubkey`, `/login`), verified for real: the registered key's RS256 signature,
/// `exp` at most 60 s after `iat`, each token once, and a password-checked key registration.
///
/// RS256 is checked with swift-crypto here rather than jwt-kit because jwt-kit refuses RSA keys under 2048 bits,
/// which `--insecure-allow-rsa1024` must accept.
package struct LegacyService: Sendable {
    typealias Store = LegacyKeyStore & SessionStore

    let store: any Store
    let clock: any WallClock
    /// `--insecure-allow-rsa1024`: RSA keys of 1024 bits are accepted.
    let allowsRSA1024: Bool
    let auditor: Auditor
    let passwords: PasswordCheck
    let gate: DeviceTokenGate
    let sessionIssuer: SessionIssuer

    static let longestLifetime: Int64 = 60
    package static let clientId = AppRecord.demo.clientId

    /// `POST /pubkey`: registers `key` (base64 of a PKCS#1 `RSA PUBLIC KEY` PEM) for the user, after the password.
    package func register(username: String, key: String, password: String, ip: String) async throws -> String {
        let der = try publicKeyDER(key)
        let user = try await passwords.verify(
            username: username, password: password, clientId: Self.clientId, ip: ip, event: .legacyPubkey)
        do {
            // A password changed since it was checked registers nothing.
            guard
                try await store.createLegacyKey(
                    sub: Self.subject(der), userId: user.id, publicKey: Base64URL.encode(der), at: clock.now(),
                    passwordHash: user.passwordHash)
            else { throw ProblemError.invalidCredentials }
        } catch StoreError.conflict {
            throw ProblemError(.keyExists)
        }
        await auditor.record(.legacyPubkey, outcome: .ok, userId: user.id, clientId: Self.clientId, ip: ip)
        return user.id
    }

    /// `POST /login`: a session (`amr:["legacy"]`, `acr:"aal1"`) for a fresh RS256 JWT of a registered key.
    package func login(jwt: String, ip: String) async throws -> Session {
        try await auditor.recording(.legacyLogin, clientId: Self.clientId, ip: ip) {
            let (sub, exp) = try await verify(jwt)
            guard let key = try await store.legacyKey(sub: sub) else { throw ProblemError.invalidAssertion }
            let signingInput = String(jwt[..<(jwt.lastIndex(of: ".") ?? jwt.endIndex)])
            guard try verifySignature(jwt, keyDER: key.publicKey) else { throw ProblemError.invalidAssertion }
            try await gate.spend(
                digest: SecretDigest.sha256(signingInput), until: exp, replayed: .invalidAssertion)
            let session = sessionIssuer.prepare(
                userId: key.userId, device: nil, clientId: Self.clientId, amr: [.legacy], acr: .aal1, ip: ip)
            try await store.createSession(session.record, refreshTokenHash: session.refreshTokenHash)
            return try await sessionIssuer.issue(session)
        }
    }

    /// Checks header and claims: `alg` RS256 only, `sub`, `iat` and `exp` present, `exp` at most 60 s after `iat`.
    private func verify(_ jwt: String) async throws -> (sub: String, exp: Int64) {
        struct Header: Decodable { let alg: String }
        struct Claims: Decodable {
            let sub: String
            let iat: Int64
            let exp: Int64
        }
        let parts = jwt.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let headerData = Base64URL.decode(parts[0]), let payloadData = Base64URL.decode(parts[1]),
            let header = try? JSONDecoder().decode(Header.self, from: headerData), header.alg == "RS256",
            let claims = try? JSONDecoder().decode(Claims.self, from: payloadData)
        else { throw ProblemError.invalidAssertion }
        let now = Int64(clock.now().timeIntervalSince1970)
        guard claims.exp > claims.iat, claims.exp - claims.iat <= Self.longestLifetime, now < claims.exp,
            claims.iat <= now + 30
        else { throw ProblemError.invalidAssertion }
        return (claims.sub, claims.exp)
    }

    private func verifySignature(_ jwt: String, keyDER: String) throws -> Bool {
        guard let der = Base64URL.decode(keyDER), let dot = jwt.lastIndex(of: "."),
            let signature = Base64URL.decode(String(jwt[jwt.index(after: dot)...]))
        else { return false }
        let key = try _RSA.Signing.PublicKey(unsafeDERRepresentation: der)
        return key.isValidSignature(
            _RSA.Signing.RSASignature(rawRepresentation: signature), for: Data(jwt[..<dot].utf8),
            padding: .insecurePKCS1v1_5)
    }

    /// The PKCS#1 DER of a base64-encoded `RSA PUBLIC KEY` PEM, of an accepted size.
    private func publicKeyDER(_ key: String) throws -> Data {
        let parsed: LegacyRSAPublicKey
        do {
            parsed = try LegacyRSAPublicKey(base64PEM: key)
        } catch {
            throw ProblemError.invalidKey("\(error)")
        }
        let minimum = allowsRSA1024 ? 1024 : 2048
        guard parsed.bits >= minimum else {
            throw ProblemError.invalidKey("RSA keys need at least \(minimum) bits")
        }
        return parsed.der
    }

    /// MD5 of the key's DER as uppercase hex pairs joined by `:`, as TouchIDAuth names keys.
    package static func subject(_ der: Data) -> String {
        Insecure.MD5.hash(data: der).map { String(format: "%02X", $0) }.joined(separator: ":")
    }

}
