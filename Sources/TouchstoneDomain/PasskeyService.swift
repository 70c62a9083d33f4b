import Crypto
import Foundation
import Logging
import TouchstoneCrypto
import TouchstoneProtocol
import TouchstoneStorage
import TouchstoneWebAuthn

/// The WebAuthn relying party: passkey registration and sign-in, and the account's list of passkeys.
///
/// Ceremony state never leaves the server: each start stores it under a random ceremony id, and the first finish
/// deletes it, whatever the outcome.
package struct PasskeyService: Sendable {
    typealias Store = PasskeyStore & UserStore & AppStore & ServerKeyStore

    let store: any Store
    let clock: any WallClock
    let random: any RandomSource
    /// The relying party's id, name and origins.
    let relyingParty: RelyingPartyConfiguration
    let metrics: ServerMetrics
    let auditor: Auditor
    let logger: Logger
    let sessionIssuer: SessionIssuer

    /// The name a passkey gets when none is given.
    static let defaultName = "Passkey"

    private func passkeys() throws(WebAuthnError) -> Passkeys {
        try Passkeys(relyingParty: relyingParty)
    }

    // MARK: Registration

    /// `POST /v1/webauthn/registration/options`: adding a passkey is privileged (a stepped-up `aal2` token), except the
    /// user's first credential, which any session may register while the user has no device and no passkey.
    package func startRegistration(by identity: AccessIdentity, ip: String) async throws
        -> CeremonyOptions<PublicKeyCredentialCreationOptionsJSON>
    {
        try await auditor.recording(
            .passkeyRegisterStart, userId: identity.userId, clientId: identity.claims.aud, ip: ip, success: false
        ) {
            // The first credential is re-checked when it is stored: nothing may have been added meanwhile.
            let firstOnly = !(try await store.hasCredentials(userId: identity.userId))
            if !firstOnly {
                guard identity.claims.acr == .aal2 else { throw Self.insufficientAuthentication }
                try StepUpService.requirePrivilege(identity)
            }
            guard let user = try await store.user(id: identity.userId) else { throw ProblemError.unauthorized }
            let existing = try await store.passkeys(userId: user.id).map { try $0.webAuthnCredential() }
            let now = clock.now()
            let (options, state) = try passkeys().startRegistration(
                user: PasskeyUser(id: Self.userHandle(user.id), name: user.username, displayName: user.username),
                challenge: random.bytes(32), excludeCredentials: existing, now: now)
            let ceremony = CeremonyRecord(
                id: random.recordID(), kind: .registration, userId: user.id, sessionId: identity.session.id,
                firstCredentialOnly: firstOnly, state: try Self.stateText(state), expiresAt: state.expiresAt)
            try await store.createCeremony(ceremony)
            return CeremonyOptions(ceremonyId: ceremony.id, publicKey: options)
        }
    }

    /// `POST /v1/webauthn/registration/verify`: only the session that started the ceremony may finish it.
    package func finishRegistration(
        _ request: PasskeyRegistrationFinish, by identity: AccessIdentity, ip: String
    ) async throws -> PasskeyRegistered {
        let name = try Self.validName(request.name)
        return try await auditor.recording(
            .passkeyRegister, userId: identity.userId, clientId: identity.claims.aud, ip: ip
        ) {
            let now = clock.now()
            guard
                let ceremony = try await store.consumeCeremony(
                    id: request.ceremonyId, kind: .registration, sessionId: identity.session.id, now: now),
                ceremony.userId == identity.userId
            else { throw Self.ceremonyInvalid }
            let state = try JSONDecoder().decode(RegistrationState.self, from: Data(ceremony.state.utf8))
            let credential: Credential
            do {
                credential = try await passkeys().finishRegistration(response: request.credential, state: state, now: now)
            } catch let error as WebAuthnError {
                throw refusal(error, during: "registration")
            }
            let record = try PasskeyRecord(userId: identity.userId, name: name, credential: credential, createdAt: now)
            let notice = SecurityNotices.draft(
                .passkeyAdded, userId: identity.userId, passkeyName: name, actingDevice: identity.deviceId, ip: ip,
                at: now)
            switch try await store.createPasskey(
                record, firstCredentialOnly: ceremony.firstCredentialOnly, notice: notice)
            {
            case .stored: return PasskeyRegistered(credentialId: record.credentialId)
            case .credentialExists: throw Self.credentialExists
            case .notFirstCredential: throw Self.insufficientAuthentication
            }
        }
    }

    // MARK: Authentication

    /// `POST /v1/webauthn/authentication/options`: a username names its account's passkeys; an unknown username
    /// (or one without passkeys) gets stand-ins derived from a server secret, the same each time, that never verify.
    package func startAuthentication(_ request: PasskeyAuthenticationStart) async throws
        -> CeremonyOptions<PublicKeyCredentialRequestOptionsJSON>
    {
        let now = clock.now()
        let started: (options: PublicKeyCredentialRequestOptionsJSON, state: AuthenticationState)
        var userId: String?
        if let username = request.username {
            let account = try await store.passkeyAccount(username: username)
            if let account, !account.passkeys.isEmpty {
                userId = account.userId
                started = try passkeys().startAuthentication(
                    credentials: account.passkeys.map { try $0.webAuthnCredential() }, challenge: random.bytes(32), now: now)
            } else {
                let decoy = try await decoy(for: username)
                started = try passkeys().startAuthentication(
                    userHandle: decoy.userHandle, allowCredentials: decoy.credentials, challenge: random.bytes(32),
                    now: now)
            }
        } else {
            started = try passkeys().startDiscoverableAuthentication(challenge: random.bytes(32), now: now)
        }
        let ceremony = CeremonyRecord(
            id: random.recordID(), kind: .authentication, userId: userId, sessionId: nil,
            firstCredentialOnly: false, state: try Self.stateText(started.state), expiresAt: started.state.expiresAt)
        try await store.createCeremony(ceremony)
        return CeremonyOptions(ceremonyId: ceremony.id, publicKey: started.options)
    }

    /// `POST /v1/webauthn/authentication/verify` → a passkey session (`amr ["passkey"]`, `acr aal2`, no device).
    package func finishAuthentication(_ request: PasskeyAuthenticationFinish, ip: String) async throws -> Session {
        try await metrics.countingLogin(.passkey) { try await authenticate(request, ip: ip) }
    }

    private func authenticate(_ request: PasskeyAuthenticationFinish, ip: String) async throws -> Session {
        let app = try await store.existingApp(request.clientId ?? AppRecord.demo.clientId)
        let stored = try await store.passkey(credentialId: request.credential.rawId.base64URL)
        return try await auditor.recording(
            .passkeyLogin, userId: stored?.userId, clientId: app.clientId, ip: ip
        ) {
            let now = clock.now()
            guard
                let ceremony = try await store.consumeCeremony(
                    id: request.ceremonyId, kind: .authentication, sessionId: nil, now: now)
            else { throw Self.ceremonyInvalid }
            let state = try JSONDecoder().decode(AuthenticationState.self, from: Data(ceremony.state.utf8))
            guard var passkey = stored, ceremony.userId == nil || ceremony.userId == passkey.userId else {
                throw refusal(WebAuthnError(.credentialNotAllowed, "no such credential for this ceremony"), during: "authentication")
            }
            // The counter is compared and stored in one statement; a concurrent sign-in that moved it first makes
            // this one verify again against the new value (once).
            for attempt in 1...2 {
                let previous = passkey.signCount
                do {
                    var credential = try passkey.webAuthnCredential()
                    let result = try passkeys().finishAuthentication(
                        response: request.credential, state: state, credential: credential, now: now)
                    try credential.update(from: result)
                    try passkey.keep(credential)
                } catch let error as WebAuthnError {
                    throw refusal(error, during: "authentication")
                }
                passkey.lastUsedAt = now
                let prepared = sessionIssuer.prepare(
                    userId: passkey.userId, device: nil, clientId: app.clientId, amr: [.passkey], acr: .aal2, ip: ip)
                if try await store.acceptPasskeyAuthentication(
                    passkey, previousSignCount: previous, session: prepared.record,
                    refreshTokenHash: prepared.refreshTokenHash)
                {
                    return try await sessionIssuer.issue(prepared)
                }
                guard attempt == 1 else { break }
                guard let reloaded = try await store.passkey(credentialId: passkey.credentialId) else {
                    throw refusal(WebAuthnError(.credentialNotAllowed, "the passkey was removed"), during: "authentication")
                }
                passkey = reloaded
            }
            throw refusal(WebAuthnError(.credentialPossiblyCloned, "the counter moved during verification"), during: "authentication")
        }
    }

    // MARK: The account's passkeys

    /// `GET /v1/webauthn/credentials`.
    package func list(_ identity: AccessIdentity) async throws -> PasskeyList {
        PasskeyList(
            credentials: try await store.passkeys(userId: identity.userId).map { passkey in
                PasskeySummary(
                    credentialId: passkey.credentialId, name: passkey.name, createdAt: passkey.createdAt,
                    lastUsedAt: passkey.lastUsedAt, backupEligible: passkey.backupEligible,
                    backedUp: passkey.backupState)
            })
    }

    /// `DELETE /v1/webauthn/credentials/{id}`: needs a privileged (stepped-up) token.
    package func delete(_ credentialId: String, by identity: AccessIdentity, ip: String) async throws {
        try await auditor.recording(
            .passkeyRemove, userId: identity.userId, clientId: identity.claims.aud, ip: ip
        ) {
            guard identity.isPrivileged else {
                throw ProblemError(.stepUpRequired, detail: "Removing a passkey needs a recent step-up.")
            }
            let notFound = ProblemError(.notFound, detail: "No such passkey.")
            guard let passkey = try await store.passkey(credentialId: credentialId),
                passkey.userId == identity.userId
            else { throw notFound }
            let notice = SecurityNotices.draft(
                .passkeyRemoved, userId: identity.userId, passkeyName: passkey.name, actingDevice: identity.deviceId,
                ip: ip, at: clock.now())
            guard
                try await store.deletePasskey(
                    credentialId: credentialId, userId: identity.userId, notice: notice)
            else { throw notFound }
        }
    }

    // MARK: Helpers

    /// A ceremony's state as the store keeps it: JSON text.
    private static func stateText(_ state: some Encodable) throws -> String {
        String(decoding: try JSONEncoder().encode(state), as: UTF8.self)
    }

    package static let ceremonyInvalid = ProblemError(.ceremonyInvalid)
    package static let credentialExists = ProblemError(.credentialExists)
    package static let insufficientAuthentication = ProblemError(.insufficientAuthentication, detail: "A password session may register only the first credential; sign in with a device or passkey.")

    /// The protocol error for a failed verification; the detail goes to the log only.
    private func refusal(_ error: WebAuthnError, during ceremony: String) -> ProblemError {
        logger.notice(
            "passkey \(ceremony) refused", metadata: ["code": .string(error.code.rawValue), "detail": .string(error.detail)])
        switch error.code {
        case .ceremonyExpired, .ceremonyMismatch: return Self.ceremonyInvalid
        case .credentialPossiblyCloned:
            return ProblemError(.credentialPossiblyCloned)
        case .credentialExcluded: return Self.credentialExists
        default: return ProblemError(.webauthnVerificationFailed)
        }
    }

    /// The user handle of an account: its id (a random UUID, no personal data), as UTF-8.
    package static func userHandle(_ userId: String) -> [UInt8] {
        Array(userId.utf8)
    }

    /// Stand-in credentials for a username without passkeys: derived from a server secret with HMAC, so the same
    /// username always gets the same ones, shaped like a platform authenticator's, and as many as accounts have (one
    /// to three, most often one), so that their count does not tell a known username from an unknown one.
    private func decoy(for username: String) async throws
        -> (userHandle: [UInt8], credentials: [PublicKeyCredentialDescriptorJSON])
    {
        let secret = try await store.serverSecret(
            name: "passkey-decoys", creating: random.token())
        let key = SymmetricKey(data: Data(secret.utf8))
        func derive(_ label: String) -> [UInt8] {
            Array(HMAC<SHA256>.authenticationCode(for: Data((label + "\u{0}" + username).utf8), using: key))
        }
        let shape = derive("count")
        let count = shape[0] < 176 ? 1 : shape[0] < 240 ? 2 : 3
        let credentials = (0..<count).map { index in
            let id = derive(index == 0 ? "credential" : "credential-\(index)")
            let length = id[0] & 1 == 0 ? 16 : 32
            return PublicKeyCredentialDescriptorJSON(
                id: Base64URLBytes(Array(id.prefix(length))), transports: ["hybrid", "internal"])
        }
        let handle = derive("user")
        let uuid = UUID(uuid: (
            handle[0], handle[1], handle[2], handle[3], handle[4], handle[5], handle[6], handle[7], handle[8],
            handle[9], handle[10], handle[11], handle[12], handle[13], handle[14], handle[15]))
        return (Self.userHandle(uuid.uuidString.lowercased()), credentials)
    }

    /// A passkey name, trimmed of surrounding spaces: 1–64 code points under ``TextRules``; `nil` gets the default.
    private static func validName(_ name: String?) throws -> String {
        guard let name else { return defaultName }
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        try TextRules.check(trimmed, field: "name", length: 1...64)
        return trimmed
    }

}

/// `{ceremonyId, publicKey}`: the options of a started ceremony.
package struct CeremonyOptions<Options: Encodable & Sendable>: Encodable, Sendable {
    var ceremonyId: String
    package var publicKey: Options
}

/// `POST /v1/webauthn/registration/verify`.
package struct PasskeyRegistrationFinish: Decodable, Sendable {
    var ceremonyId: String
    package var credential: RegistrationResponseJSON
    package var name: String?
}

/// `POST /v1/webauthn/authentication/verify`.
package struct PasskeyAuthenticationFinish: Decodable, Sendable {
    var ceremonyId: String
    package var credential: AuthenticationResponseJSON
    package var clientId: String?
}
