import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
import TouchstoneProtocol
import TouchstoneTestSupport
import TouchstoneWebAuthn
import TouchstoneWebAuthnTestSupport

@testable import TouchstoneDomain
@testable import TouchstoneHTTP
@testable import TouchstoneServer
@testable import TouchstoneStorage

/// `/v1/webauthn`: passkey registration and sign-in, driven by a software authenticator for the harness's origin.
@Suite struct PasskeyTests {
    struct Options<PublicKey: Decodable>: Decodable {
        var ceremonyId: String
        var publicKey: PublicKey
    }

    typealias CreationOptions = Options<PublicKeyCredentialCreationOptionsJSON>
    typealias RequestOptions = Options<PublicKeyCredentialRequestOptionsJSON>

    static func authenticator(seed: UInt64) -> SoftAuthenticator {
        var authenticator = SoftAuthenticator(seed: seed)
        authenticator.rpID = "localhost"
        authenticator.origin = Harness.issuer
        return authenticator
    }

    // MARK: Steps

    func passwordSession(_ h: Harness, _ username: String = "ana") async throws -> Session {
        let response = try await h.send(
            .post, "/v1/sessions/password",
            json: PasswordLoginRequest(clientId: "com.example.demo", username: username, password: Harness.password))
        #expect(response.status == .created)
        return try h.decode(Session.self, response)
    }

    func registrationOptions(_ h: Harness, _ session: Session) async throws -> TestResponse {
        try await h.send(.post, "/v1/webauthn/registration/options", raw: "{}", headers: h.bearer(session))
    }

    func startRegistration(_ h: Harness, _ session: Session) async throws -> CreationOptions {
        let response = try await registrationOptions(h, session)
        #expect(response.status == .ok)
        return try h.decode(CreationOptions.self, response)
    }

    func registrationResponse(
        _ authenticator: SoftAuthenticator, _ options: CreationOptions, signCount: UInt32 = 0,
        flags: AuthenticatorFlags = [.userPresent, .userVerified], clientDataJSON: [UInt8]? = nil
    ) -> RegistrationResponseJSON {
        let made = authenticator.register(
            challenge: options.publicKey.challenge.bytes, flags: flags, signCount: signCount,
            clientDataJSON: clientDataJSON)
        let rawId = Base64URLBytes(authenticator.credentialID)
        return RegistrationResponseJSON(
            id: rawId.base64URL, rawId: rawId,
            response: AuthenticatorAttestationResponseJSON(
                clientDataJSON: Base64URLBytes(made.clientDataJSON), transports: ["internal", "hybrid"],
                attestationObject: Base64URLBytes(made.attestationObject)),
            authenticatorAttachment: "platform")
    }

    func verifyRegistration(
        _ h: Harness, _ session: Session, _ ceremonyId: String, _ credential: RegistrationResponseJSON,
        name: String? = nil
    ) async throws -> TestResponse {
        try await h.send(
            .post, "/v1/webauthn/registration/verify",
            json: RegistrationVerify(ceremonyId: ceremonyId, credential: credential, name: name), headers: h.bearer(session))
    }

    /// Registers the authenticator from `session`, expecting 201.
    @discardableResult
    func register(_ h: Harness, _ session: Session, _ authenticator: SoftAuthenticator, signCount: UInt32 = 0)
        async throws -> String
    {
        let options = try await startRegistration(h, session)
        let response = try await verifyRegistration(
            h, session, options.ceremonyId, registrationResponse(authenticator, options, signCount: signCount))
        #expect(response.status == .created)
        return try h.decode(PasskeyRegistered.self, response).credentialId
    }

    func startAuthentication(_ h: Harness, username: String?) async throws -> RequestOptions {
        let response = try await h.send(
            .post, "/v1/webauthn/authentication/options", json: PasskeyAuthenticationStart(username: username))
        #expect(response.status == .ok)
        #expect(response.headers[.cacheControl] == "no-store")
        return try h.decode(RequestOptions.self, response)
    }

    func assertion(
        _ authenticator: SoftAuthenticator, _ options: RequestOptions, signCount: UInt32 = 0, userHandle: String?,
        flags: AuthenticatorFlags = [.userPresent, .userVerified], clientDataJSON: [UInt8]? = nil
    ) -> AuthenticationResponseJSON {
        let made = authenticator.assert(
            challenge: options.publicKey.challenge.bytes, flags: flags, signCount: signCount,
            clientDataJSON: clientDataJSON)
        let rawId = Base64URLBytes(authenticator.credentialID)
        return AuthenticationResponseJSON(
            id: rawId.base64URL, rawId: rawId,
            response: AuthenticatorAssertionResponseJSON(
                clientDataJSON: Base64URLBytes(made.clientDataJSON),
                authenticatorData: Base64URLBytes(made.authenticatorData), signature: Base64URLBytes(made.signature),
                userHandle: userHandle.map { Base64URLBytes(Array($0.utf8)) }))
    }

    func verifyAuthentication(
        _ h: Harness, _ ceremonyId: String, _ credential: AuthenticationResponseJSON, clientId: String? = nil
    ) async throws -> TestResponse {
        try await h.send(
            .post, "/v1/webauthn/authentication/verify",
            json: AuthenticationVerify(ceremonyId: ceremonyId, credential: credential, clientId: clientId))
    }

    /// Signs in with the authenticator (by username, or usernameless with its user handle), expecting 201.
    func signIn(
        _ h: Harness, _ authenticator: SoftAuthenticator, username: String?, userId: String, signCount: UInt32 = 0
    ) async throws -> Session {
        let options = try await startAuthentication(h, username: username)
        let response = try await verifyAuthentication(
            h, options.ceremonyId, assertion(authenticator, options, signCount: signCount, userHandle: userId))
        #expect(response.status == .created)
        return try h.decode(Session.self, response)
    }

    func credentials(_ h: Harness, _ session: Session) async throws -> [PasskeySummary] {
        let response = try await h.send(.get, "/v1/webauthn/credentials", headers: h.bearer(session))
        #expect(response.status == .ok)
        return try h.decode(PasskeyList.self, response).credentials
    }

    // MARK: Registration

    @Test func aPasswordSessionRegistersTheFirstPasskey() async throws {
        try await Harness.run { h in
            let userId = try await h.createAccount()
            let session = try await passwordSession(h)
            let response = try await registrationOptions(h, session)
            #expect(response.status == .ok)
            #expect(response.headers[.cacheControl] == "no-store")
            #expect(Set(try h.jsonObject(response).keys) == ["ceremonyId", "publicKey"])
            let options = try h.decode(CreationOptions.self, response)
            #expect(options.publicKey.rp.id == "localhost")
            #expect(options.publicKey.user.id.bytes == Array(userId.utf8))
            #expect(options.publicKey.user.name == "ana")
            #expect(options.publicKey.challenge.bytes.count == 32)
            #expect(options.publicKey.authenticatorSelection?.userVerification == .required)
            #expect(options.publicKey.authenticatorSelection?.residentKey == .required)
            #expect(options.publicKey.excludeCredentials?.isEmpty ?? true)

            let authenticator = Self.authenticator(seed: 1)
            let verified = try await verifyRegistration(
                h, session, options.ceremonyId, registrationResponse(authenticator, options), name: "Laptop")
            #expect(verified.status == .created)
            #expect(Set(try h.jsonObject(verified).keys) == ["credentialId"])
            let credentialId = try h.decode(PasskeyRegistered.self, verified).credentialId
            #expect(credentialId == Base64URLBytes(authenticator.credentialID).base64URL)

            let listed = try await credentials(h, session)
            #expect(listed.map(\.credentialId) == [credentialId])
            #expect(listed.first?.name == "Laptop")
            #expect(listed.first?.lastUsedAt == nil)
            #expect(listed.first?.backupEligible == false)
        }
    }

    @Test func aCeremonyIsUsedOnceAndBoundToItsSession() async throws {
        try await Harness.run { h in
            try await h.createAccount()
            try await h.createAccount("bea")
            let ana = try await passwordSession(h)
            let bea = try await passwordSession(h, "bea")
            let options = try await startRegistration(h, ana)
            let credential = registrationResponse(Self.authenticator(seed: 2), options)
            // Another user's session cannot finish it, and trying does not use it up.
            try h.expectProblem(try await verifyRegistration(h, bea, options.ceremonyId, credential), 401, .ceremonyInvalid)
            #expect(try await verifyRegistration(h, ana, options.ceremonyId, credential).status == .created)
            try h.expectProblem(try await verifyRegistration(h, ana, options.ceremonyId, credential), 401, .ceremonyInvalid)
            try h.expectProblem(try await verifyRegistration(h, ana, "no-such-ceremony", credential), 401, .ceremonyInvalid)
            try h.expectProblem(
                try await h.send(.post, "/v1/webauthn/registration/options", raw: "{}"), 401, .unauthorized)
        }
    }

    @Test func aPasswordSessionCannotRegisterASecondCredential() async throws {
        try await Harness.run { h in
            try await h.createAccount()
            let session = try await passwordSession(h)
            try await register(h, session, Self.authenticator(seed: 3))
            try h.expectProblem(try await registrationOptions(h, session), 403, .insufficientAuthentication)

            // Nor while the user has a device.
            let device = try await TestDevice()
            try await h.createAccount("bea")
            _ = try await h.enroll(device, username: "bea", createAccount: false)
            try h.expectProblem(
                try await registrationOptions(h, try await passwordSession(h, "bea")), 403, .insufficientAuthentication)
        }
    }

    @Test func twoFirstRegistrationsOfAPasswordSessionStoreOnlyOne() async throws {
        try await Harness.run { h in
            try await h.createAccount()
            let session = try await passwordSession(h)
            let first = try await startRegistration(h, session)
            let second = try await startRegistration(h, session)
            async let a = verifyRegistration(h, session, first.ceremonyId, registrationResponse(Self.authenticator(seed: 4), first))
            async let b = verifyRegistration(h, session, second.ceremonyId, registrationResponse(Self.authenticator(seed: 5), second))
            let statuses = [try await a, try await b].map(\.status.code).sorted()
            #expect(statuses == [201, 403])
            #expect(try await credentials(h, session).count == 1)
        }
    }

    @Test func aPrivilegedSessionAddsPasskeysAndTheSameAuthenticatorIsRefusedTwice() async throws {
        try await Harness.run { h in
            let device = try await TestDevice()
            let enrolled = try await h.enroll(device)
            let privileged = try await h.stepUp(enrolled.session)
            let authenticator = Self.authenticator(seed: 6)
            let first = try await register(h, privileged, authenticator)
            try await register(h, privileged, Self.authenticator(seed: 7))

            // The options exclude the account's passkeys; an authenticator that ignores that still gets 409.
            let options = try await startRegistration(h, privileged)
            #expect(options.publicKey.excludeCredentials?.count == 2)
            #expect(options.publicKey.excludeCredentials?.contains { $0.id.base64URL == first } == true)
            try h.expectProblem(
                try await verifyRegistration(h, privileged, options.ceremonyId, registrationResponse(authenticator, options)),
                409, .credentialExists)

            // Another account cannot take over a registered credential ID either.
            try await h.createAccount("bea")
            let bea = try await passwordSession(h, "bea")
            let beaOptions = try await startRegistration(h, bea)
            try h.expectProblem(
                try await verifyRegistration(h, bea, beaOptions.ceremonyId, registrationResponse(authenticator, beaOptions)),
                409, .credentialExists)
            #expect(try await credentials(h, bea).isEmpty)
        }
    }

    @Test func registrationsThatDoNotVerifyAreRefusedAndStoreNothing() async throws {
        try await Harness.run { h in
            try await h.createAccount()
            let session = try await passwordSession(h)
            let authenticator = Self.authenticator(seed: 8)
            var cases: [(String, (CreationOptions) -> RegistrationResponseJSON)] = [
                ("no user verification", { registrationResponse(authenticator, $0, flags: [.userPresent]) }),
                ("another origin", {
                    registrationResponse(authenticator, $0, clientDataJSON: SoftAuthenticator.clientData(
                        type: "webauthn.create", challenge: $0.publicKey.challenge.bytes, origin: "http://localhost:9999"))
                }),
                ("another challenge", {
                    registrationResponse(authenticator, $0, clientDataJSON: SoftAuthenticator.clientData(
                        type: "webauthn.create", challenge: Array(repeating: 7, count: 32), origin: Harness.issuer))
                }),
                ("a get ceremony", {
                    registrationResponse(authenticator, $0, clientDataJSON: SoftAuthenticator.clientData(
                        type: "webauthn.get", challenge: $0.publicKey.challenge.bytes, origin: Harness.issuer))
                }),
            ]
            var other = authenticator
            other.rpID = "example.org"
            cases.append(("another RP ID", { registrationResponse(other, $0) }))
            for (label, make) in cases {
                let options = try await startRegistration(h, session)
                let response = try await verifyRegistration(h, session, options.ceremonyId, make(options))
                #expect(response.status.code == 401, "\(label)")
                #expect(try h.problem(response).code == .webauthnVerificationFailed, "\(label)")
                #expect(try h.problem(response).detail?.contains("origin") != true, "\(label): the detail stays in the log")
            }
            #expect(try await credentials(h, session).isEmpty)
        }
    }

    @Test func malformedRegistrationBodiesAre400() async throws {
        try await Harness.run { h in
            try await h.createAccount()
            let session = try await passwordSession(h)
            // An empty body is an empty object; anything else must be JSON.
            #expect(try await h.send(.post, "/v1/webauthn/registration/options", headers: h.bearer(session)).status == .ok)
            try h.expectProblem(
                try await h.send(.post, "/v1/webauthn/registration/options", raw: "[", headers: h.bearer(session)),
                400, .invalidRequest)
            let options = try await startRegistration(h, session)
            for raw in [
                "{}", #"{"ceremonyId":"\#(options.ceremonyId)"}"#,
                #"{"ceremonyId":"\#(options.ceremonyId)","credential":{"id":"x"}}"#,
                #"{"ceremonyId":"\#(options.ceremonyId)","credential":{"id":"AA","rawId":"***","type":"public-key","response":{"clientDataJSON":"","attestationObject":""},"clientExtensionResults":{}}}"#,
            ] {
                try h.expectProblem(
                    try await h.send(.post, "/v1/webauthn/registration/verify", raw: raw, headers: h.bearer(session)),
                    400, .invalidRequest)
            }
            let credential = registrationResponse(Self.authenticator(seed: 9), options)
            try h.expectProblem(
                try await verifyRegistration(h, session, options.ceremonyId, credential, name: "\u{7}bell"), 400, .invalidRequest)
            // Bad input did not use the ceremony up.
            #expect(try await verifyRegistration(h, session, options.ceremonyId, credential).status == .created)
        }
    }

    /// Found by Schemathesis (`scripts/schemathesis`): `[]` was answered 200 with creation options and a stored ceremony.
    @Test func aRegistrationOptionsBodyThatIsNotAnObjectIs400AndStartsNoCeremony() async throws {
        try await Harness.run { h in
            try await h.createAccount()
            let session = try await passwordSession(h)
            for raw in ["[]", "[{}]", "0", #""{}""#, "true", "null"] {
                try h.expectProblem(
                    try await h.send(.post, "/v1/webauthn/registration/options", raw: raw, headers: h.bearer(session)),
                    400, .invalidRequest)
            }
            #expect(try await ceremonies(h) == 0)
            // Members of an object are ignored, as everywhere.
            #expect(
                try await h.send(.post, "/v1/webauthn/registration/options", raw: #"{"x":[1]}"#, headers: h.bearer(session))
                    .status == .ok)
            #expect(try await ceremonies(h) == 1)
        }
    }

    func ceremonies(_ h: Harness) async throws -> Int {
        let store = try #require(h.store as? SQLStore)
        return try await store.provider.read { database in
            try await database.raw("SELECT COUNT(*) AS n FROM webauthn_ceremonies").first()?.decode(column: "n", as: Int.self) ?? -1
        }
    }

    // MARK: Sign-in

    @Test func signInByUsernameGivesAnAAL2PasskeySession() async throws {
        try await Harness.run { h in
            let userId = try await h.createAccount()
            let authenticator = Self.authenticator(seed: 10)
            let credentialId = try await register(h, try await passwordSession(h), authenticator)

            let options = try await startAuthentication(h, username: "ana")
            #expect(options.publicKey.rpId == "localhost")
            #expect(options.publicKey.userVerification == .required)
            #expect(options.publicKey.allowCredentials?.map(\.id.base64URL) == [credentialId])
            #expect(options.publicKey.allowCredentials?.first?.transports == ["internal", "hybrid"])
            let response = try await verifyAuthentication(
                h, options.ceremonyId, assertion(authenticator, options, userHandle: userId))
            #expect(response.status == .created)
            #expect(response.headers[.cacheControl] == "no-store")
            let session = try h.decode(Session.self, response)
            #expect(session.amr == ["passkey"])
            #expect(session.acr == "aal2")
            #expect(session.deviceId == nil)
            #expect(session.userId == userId)
            let claims = try jwtParts(session.accessToken).payload
            #expect(claims["aud"] as? String == "com.example.demo")
            #expect(claims["did"] == nil)

            // The session works, can step up (aal2), refreshes without a device proof, and is listed as used.
            #expect(try await h.send(.get, "/v1/devices", headers: h.bearer(session)).status == .ok)
            #expect(
                try await h.send(.post, "/v1/step-up", json: PasswordRequest(password: Harness.password), headers: h.bearer(session))
                    .status == .ok)
            #expect(
                try await h.send(.post, "/v1/sessions/refresh", json: RefreshRequest(refreshToken: session.refreshToken))
                    .status == .ok)
            #expect(try await credentials(h, session).first?.lastUsedAt == h.now.roundedDownToSeconds)

            // GET /v1/account names the user a usernameless sign-in did not.
            let profile = try await h.send(.get, "/v1/account", headers: h.bearer(session))
            #expect(profile.status == .ok)
            #expect(profile.headers[.cacheControl] == "no-store")
            #expect(Set(try h.jsonObject(profile).keys) == ["userId", "username", "createdAt", "recoveryCodesRemaining"])
            #expect(try h.decode(AccountProfile.self, profile) == AccountProfile(userId: userId, username: "ana", createdAt: h.now.roundedDownToSeconds))
            try h.expectProblem(try await h.send(.get, "/v1/account"), 401, .unauthorized)
        }
    }

    @Test func signInWithAnotherAppAndAnUnknownApp() async throws {
        try await Harness.run { h in
            let userId = try await h.createAccount()
            let authenticator = Self.authenticator(seed: 11)
            try await register(h, try await passwordSession(h), authenticator)
            try await h.saveApp(AppPolicy(clientId: "com.example.bank", publisher: "bank"))
            var options = try await startAuthentication(h, username: "ana")
            let response = try await verifyAuthentication(
                h, options.ceremonyId, assertion(authenticator, options, userHandle: userId), clientId: "com.example.bank")
            #expect(response.status == .created)
            #expect(try jwtParts(try h.decode(Session.self, response).accessToken).payload["aud"] as? String == "com.example.bank")

            // An unknown app is refused before the ceremony is used.
            options = try await startAuthentication(h, username: "ana")
            let credential = assertion(authenticator, options, userHandle: userId)
            try h.expectProblem(
                try await verifyAuthentication(h, options.ceremonyId, credential, clientId: "com.example.none"), 404, .appNotFound)
            #expect(try await verifyAuthentication(h, options.ceremonyId, credential).status == .created)
        }
    }

    @Test func usernamelessSignInNeedsTheUserHandle() async throws {
        try await Harness.run { h in
            let userId = try await h.createAccount()
            let authenticator = Self.authenticator(seed: 12)
            try await register(h, try await passwordSession(h), authenticator)

            let options = try await startAuthentication(h, username: nil)
            #expect(options.publicKey.allowCredentials?.isEmpty ?? true)
            #expect(try await signIn(h, authenticator, username: nil, userId: userId).userId == userId)

            // Without the user handle, or with another account's, it does not verify.
            let other = try await h.createAccount("bea")
            for handle in [nil, other] {
                let options = try await startAuthentication(h, username: nil)
                try h.expectProblem(
                    try await verifyAuthentication(h, options.ceremonyId, assertion(authenticator, options, userHandle: handle)),
                    401, .webauthnVerificationFailed)
            }
        }
    }

    @Test func replayedAndTamperedAssertionsAreRefused() async throws {
        try await Harness.run { h in
            let userId = try await h.createAccount()
            let authenticator = Self.authenticator(seed: 13)
            try await register(h, try await passwordSession(h), authenticator)

            let options = try await startAuthentication(h, username: "ana")
            let credential = assertion(authenticator, options, userHandle: userId)
            #expect(try await verifyAuthentication(h, options.ceremonyId, credential).status == .created)
            // The same assertion again: its ceremony is used; against a new ceremony: the challenge differs.
            try h.expectProblem(try await verifyAuthentication(h, options.ceremonyId, credential), 401, .ceremonyInvalid)
            let fresh = try await startAuthentication(h, username: "ana")
            try h.expectProblem(try await verifyAuthentication(h, fresh.ceremonyId, credential), 401, .webauthnVerificationFailed)

            // clientDataJSON changed after signing (one byte of the challenge).
            let next = try await startAuthentication(h, username: "ana")
            var tampered = assertion(authenticator, next, userHandle: userId)
            var bytes = tampered.response.clientDataJSON.bytes
            bytes[bytes.count - 3] ^= 0x01
            tampered.response.clientDataJSON = Base64URLBytes(bytes)
            try h.expectProblem(try await verifyAuthentication(h, next.ceremonyId, tampered), 401, .webauthnVerificationFailed)
            // A signature over client data from another origin, with a ceremony's challenge.
            let third = try await startAuthentication(h, username: "ana")
            let foreign = assertion(
                authenticator, third, userHandle: userId,
                clientDataJSON: SoftAuthenticator.clientData(
                    type: "webauthn.get", challenge: third.publicKey.challenge.bytes, origin: "http://localhost:9999"))
            try h.expectProblem(try await verifyAuthentication(h, third.ceremonyId, foreign), 401, .webauthnVerificationFailed)

            // Without user verification.
            let unverified = try await startAuthentication(h, username: "ana")
            try h.expectProblem(
                try await verifyAuthentication(
                    h, unverified.ceremonyId, assertion(authenticator, unverified, userHandle: userId, flags: [.userPresent])),
                401, .webauthnVerificationFailed)

            // An expired ceremony.
            let late = try await startAuthentication(h, username: "ana")
            h.clock.advance(by: 301)
            try h.expectProblem(
                try await verifyAuthentication(h, late.ceremonyId, assertion(authenticator, late, userHandle: userId)),
                401, .ceremonyInvalid)

            let events = try await h.store.auditEvents(since: nil, userId: userId).filter { $0.event == .passkeyLogin }
            #expect(events.map(\.outcome).filter { $0 == .ok }.count == 1)
            #expect(events.contains { $0.outcome.rawValue == "webauthn_verification_failed" })
            #expect(events.contains { $0.outcome.rawValue == "ceremony_invalid" })
        }
    }

    @Test func theSignatureCounterMustIncreaseUnlessBothAreZero() async throws {
        try await Harness.run { h in
            let userId = try await h.createAccount()
            let counting = Self.authenticator(seed: 14)
            try await register(h, try await passwordSession(h), counting, signCount: 1)
            _ = try await signIn(h, counting, username: "ana", userId: userId, signCount: 5)
            for stale in [UInt32(5), 4, 0] {
                let options = try await startAuthentication(h, username: "ana")
                try h.expectProblem(
                    try await verifyAuthentication(
                        h, options.ceremonyId, assertion(counting, options, signCount: stale, userHandle: userId)),
                    401, .credentialPossiblyCloned)
            }
            _ = try await signIn(h, counting, username: "ana", userId: userId, signCount: 6)

            // A synced passkey without a counter: 0 and 0, every time.
            let other = try await h.createAccount("bea")
            let synced = Self.authenticator(seed: 15)
            try await register(h, try await passwordSession(h, "bea"), synced)
            for _ in 0..<3 { _ = try await signIn(h, synced, username: "bea", userId: other) }
        }
    }

    @Test func backupFlagsAreStoredAndFollowEachSignIn() async throws {
        try await Harness.run { h in
            let userId = try await h.createAccount()
            let session = try await passwordSession(h)
            let authenticator = Self.authenticator(seed: 21)
            let options = try await startRegistration(h, session)
            let registered = try await verifyRegistration(
                h, session, options.ceremonyId,
                registrationResponse(authenticator, options, flags: [.userPresent, .userVerified, .backupEligible]))
            #expect(registered.status == .created)
            #expect(try await credentials(h, session).map { [$0.backupEligible, $0.backedUp] } == [[true, false]])

            for backedUp in [true, false] {
                let flags: AuthenticatorFlags = backedUp
                    ? [.userPresent, .userVerified, .backupEligible, .backupState] : [.userPresent, .userVerified, .backupEligible]
                let request = try await startAuthentication(h, username: "ana")
                let response = try await verifyAuthentication(
                    h, request.ceremonyId, assertion(authenticator, request, userHandle: userId, flags: flags))
                #expect(response.status == .created)
                #expect(try await credentials(h, session).map { [$0.backupEligible, $0.backedUp] } == [[true, backedUp]])
            }
            // Backup eligibility is fixed for the credential's life.
            let request = try await startAuthentication(h, username: "ana")
            try h.expectProblem(
                try await verifyAuthentication(
                    h, request.ceremonyId, assertion(authenticator, request, userHandle: userId, flags: [.userPresent, .userVerified])),
                401, .webauthnVerificationFailed)
        }
    }

    @Test func concurrentSignInsWithOneCounterValueWinOnce() async throws {
        try await Harness.run { h in
            let userId = try await h.createAccount()
            let authenticator = Self.authenticator(seed: 16)
            try await register(h, try await passwordSession(h), authenticator, signCount: 1)
            var attempts: [(String, AuthenticationResponseJSON)] = []
            for _ in 0..<6 {
                let options = try await startAuthentication(h, username: "ana")
                attempts.append((options.ceremonyId, assertion(authenticator, options, signCount: 2, userHandle: userId)))
            }
            let statuses = try await withThrowingTaskGroup(of: UInt.self) { group in
                for (ceremonyId, credential) in attempts {
                    group.addTask { UInt(try await verifyAuthentication(h, ceremonyId, credential).status.code) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 201 }.count == 1)
            #expect(statuses.filter { $0 == 401 }.count == 5)
        }
    }

    @Test func unknownUsernamesGetStableStandInCredentials() async throws {
        try await Harness.run { h in
            let userId = try await h.createAccount()
            let authenticator = Self.authenticator(seed: 17)
            try await register(h, try await passwordSession(h), authenticator)
            try await h.createAccount("bea")  // an account without passkeys looks the same as no account

            let real = try await h.send(.post, "/v1/webauthn/authentication/options", json: PasskeyAuthenticationStart(username: "ana"))
            let ghost = try await h.send(.post, "/v1/webauthn/authentication/options", json: PasskeyAuthenticationStart(username: "ghost"))
            #expect(Set(try h.jsonObject(ghost).keys) == Set(try h.jsonObject(real).keys))
            let realOptions = try h.decode(RequestOptions.self, real).publicKey
            for username in ["ghost", "bea"] {
                let first = try await startAuthentication(h, username: username).publicKey
                let again = try await startAuthentication(h, username: username).publicKey
                #expect((1...3).contains(first.allowCredentials?.count ?? 0))
                #expect(first.allowCredentials == again.allowCredentials, "the same stand-ins every time")
                #expect(first.allowCredentials?.first?.type == realOptions.allowCredentials?.first?.type)
                #expect([16, 32].contains(first.allowCredentials?.first?.id.bytes.count ?? 0))
                #expect(first.userVerification == realOptions.userVerification)
                #expect(first.challenge != again.challenge)
            }
            #expect(
                try await startAuthentication(h, username: "ghost").publicKey.allowCredentials
                    != (try await startAuthentication(h, username: "bea").publicKey.allowCredentials))

            // Ana's passkey does not verify in a ceremony for another username.
            let options = try await startAuthentication(h, username: "ghost")
            try h.expectProblem(
                try await verifyAuthentication(h, options.ceremonyId, assertion(authenticator, options, userHandle: userId)),
                401, .webauthnVerificationFailed)
        }
    }

    /// Regression: known usernames got as many `allowCredentials` as they have passkeys, unknown ones always exactly
    /// one stand-in, which told them apart.
    @Test func standInsComeInAsManyCredentialsAsRealAccountsHave() async throws {
        try await Harness.run { h in
            var counts: [Int: Int] = [:]
            for index in 0..<60 {
                let options = try await startAuthentication(h, username: "nobody-\(index)").publicKey
                let count = options.allowCredentials?.count ?? 0
                counts[count, default: 0] += 1
                #expect(Set(options.allowCredentials?.map(\.id) ?? []).count == count, "distinct stand-ins")
                #expect(
                    try await startAuthentication(h, username: "nobody-\(index)").publicKey.allowCredentials
                        == options.allowCredentials)
            }
            #expect(Set(counts.keys).isSubset(of: [1, 2, 3]))
            #expect(counts[1, default: 0] > counts[2, default: 0] && counts[2, default: 0] > 0, "\(counts)")
        }
    }

    /// Regression: any `aal2` access token (10 minutes) registered a passkey, which then outlived a password change and
    /// the device's removal. Adding a credential is privileged, except the first one.
    @Test func anAAL2SessionNeedsAStepUpToAddAPasskey() async throws {
        try await Harness.run { h in
            let enrolled = try await h.enroll(try await TestDevice())
            try h.expectProblem(try await registrationOptions(h, enrolled.session), 403, .stepUpRequired)
            // A passkey session of a user who has a passkey: the same.
            let beaId = try await h.createAccount("bea")
            let authenticator = Self.authenticator(seed: 31)
            try await register(h, try await passwordSession(h, "bea"), authenticator)
            let passkeySession = try await signIn(h, authenticator, username: "bea", userId: beaId)
            try h.expectProblem(try await registrationOptions(h, passkeySession), 403, .stepUpRequired)
            #expect(try await registrationOptions(h, try await h.stepUp(passkeySession)).status == .ok)
            #expect(try await registrationOptions(h, try await h.stepUp(enrolled.session)).status == .ok)
        }
    }

    // MARK: The account's passkeys

    @Test func removingAPasskeyNeedsAStepUp() async throws {
        try await Harness.run { h in
            let userId = try await h.createAccount()
            let authenticator = Self.authenticator(seed: 18)
            let credentialId = try await register(h, try await passwordSession(h), authenticator)
            let session = try await signIn(h, authenticator, username: "ana", userId: userId)
            try h.expectProblem(
                try await h.send(.delete, "/v1/webauthn/credentials/\(credentialId)", headers: h.bearer(session)),
                403, .stepUpRequired)

            let stepUp = try await h.send(
                .post, "/v1/step-up", json: PasswordRequest(password: Harness.password), headers: h.bearer(session))
            var privileged = session
            privileged.accessToken = try h.decode(StepUpToken.self, stepUp).accessToken
            try h.expectProblem(
                try await h.send(.delete, "/v1/webauthn/credentials/someone-elses", headers: h.bearer(privileged)),
                404, .notFound)
            #expect(
                try await h.send(.delete, "/v1/webauthn/credentials/\(credentialId)", headers: h.bearer(privileged)).status
                    == .noContent)
            try h.expectProblem(
                try await h.send(.delete, "/v1/webauthn/credentials/\(credentialId)", headers: h.bearer(privileged)),
                404, .notFound)
            #expect(try await credentials(h, session).isEmpty)

            // The removed passkey no longer signs in.
            let options = try await startAuthentication(h, username: nil)
            try h.expectProblem(
                try await verifyAuthentication(h, options.ceremonyId, assertion(authenticator, options, userHandle: userId)),
                401, .webauthnVerificationFailed)
        }
    }

    @Test func anotherUsersPasskeyCannotBeRemoved() async throws {
        try await Harness.run { h in
            try await h.createAccount()
            let credentialId = try await register(h, try await passwordSession(h), Self.authenticator(seed: 19))
            let device = try await TestDevice()
            let bea = try await h.enroll(device, username: "bea")
            let stepUp = try await h.send(
                .post, "/v1/step-up", json: PasswordRequest(password: Harness.password), headers: h.bearer(bea.session))
            var privileged = bea.session
            privileged.accessToken = try h.decode(StepUpToken.self, stepUp).accessToken
            try h.expectProblem(
                try await h.send(.delete, "/v1/webauthn/credentials/\(credentialId)", headers: h.bearer(privileged)),
                404, .notFound)
            #expect(try await h.store.passkey(credentialId: credentialId) != nil)
        }
    }

    // MARK: Bad input

    /// Every member of the verify bodies, however deep, replaced or removed, each time for a fresh ceremony so that
    /// the mutation reaches the parsers: never a 5xx, never a stored passkey or session, and the tables the protocol
    /// does not name as counters stay as they were. The bodies fail late (the RP ID hash, after the attestation
    /// object is parsed; the signature, last), so no variant can succeed.
    @Test func malformedCeremonyBodiesNeverAnswer500AndStoreNothing() async throws {
        try await Harness.run { h in
            let userId = try await h.createAccount()
            let authenticator = Self.authenticator(seed: 20)
            try await register(h, try await passwordSession(h), authenticator)
            let aal2 = try await h.stepUp(try await signIn(h, authenticator, username: "ana", userId: userId))
            var elsewhere = authenticator
            elsewhere.rpID = "example.org"
            let before = try await ProtocolTests().snapshot(h)
            let passkeysBefore = try await h.store.passkeys(userId: userId)

            let bodies: [(path: String, headers: HTTPFields, make: () async throws -> any Encodable)] = [
                ("/v1/webauthn/registration/verify", h.bearer(aal2), {
                    let options = try await startRegistration(h, aal2)
                    return RegistrationVerify(
                        ceremonyId: options.ceremonyId, credential: registrationResponse(elsewhere, options), name: "Key")
                }),
                ("/v1/webauthn/authentication/verify", [:], {
                    let options = try await startAuthentication(h, username: nil)
                    var credential = assertion(authenticator, options, signCount: 0, userHandle: userId)
                    credential.response.signature = Base64URLBytes(credential.response.signature.bytes.reversed())
                    return AuthenticationVerify(ceremonyId: options.ceremonyId, credential: credential, clientId: nil)
                }),
            ]
            let wrongValues: [Any] = [
                NSNull(), 0, -1, 1e300, true, "", "💥", "***", "AAAA", String(repeating: "é", count: 3_000), [] as [Any],
                ["nested": [1, 2]],
            ]
            var answered = 0
            for (path, headers, make) in bodies {
                let template = try Self.jsonObject(try await make())
                for mutation in Self.mutations(of: template, replacingWith: wrongValues) {
                    let variant = Self.applying(mutation, to: try Self.jsonObject(try await make()))
                    let data = try JSONSerialization.data(withJSONObject: variant)
                    let response = try await h.send(.post, path, raw: String(decoding: data, as: UTF8.self), headers: headers)
                    let label = "\(path) \(mutation.path.joined(separator: ".")) → \(mutation.value.map { "\($0)".prefix(20) } ?? "removed")"
                    #expect(response.status.code < 500, "\(label): \(response.status)")
                    #expect(response.status.code != 201, "\(label)")
                    answered += 1
                }
            }
            #expect(answered > 200)
            #expect(try await ProtocolTests().snapshot(h) == before)
            #expect(try await h.store.passkeys(userId: userId) == passkeysBefore)
        }
    }

    static func jsonObject(_ value: any Encodable) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: try WireCoding.encoder().encode(value)) as? [String: Any])
    }

    /// A member path and its new value (`nil`: removed).
    typealias Mutation = (path: [String], value: Any?)

    /// Each member of `object`, at any depth, removed or replaced by each of `values`.
    static func mutations(of object: [String: Any], replacingWith values: [Any], at prefix: [String] = []) -> [Mutation] {
        object.keys.sorted().flatMap { key -> [Mutation] in
            let path = prefix + [key]
            var result: [Mutation] = [(path, nil)] + values.map { (path, $0) }
            if let nested = object[key] as? [String: Any] {
                result += mutations(of: nested, replacingWith: values, at: path)
            }
            return result
        }
    }

    static func applying(_ mutation: Mutation, to object: [String: Any]) -> [String: Any] {
        var object = object
        guard let key = mutation.path.first else { return object }
        if mutation.path.count == 1 {
            object[key] = mutation.value
        } else if let nested = object[key] as? [String: Any] {
            object[key] = applying((Array(mutation.path.dropFirst()), mutation.value), to: nested)
        }
        return object
    }

    // MARK: Origins

    @Test func corsAnswersOnlyTheConfiguredOrigins() async throws {
        try await Harness.run(configure: { try? $0.setRelyingParty(id: nil, origins: [Harness.issuer, "http://localhost:3000"]) }) { h in
            let preflight = try await h.send(
                .options, "/v1/webauthn/authentication/options",
                headers: [.origin: "http://localhost:3000", .accessControlRequestMethod: "POST",
                          .accessControlRequestHeaders: "content-type"])
            #expect(preflight.status == .noContent)
            #expect(preflight.headers[.accessControlAllowOrigin] == "http://localhost:3000")
            #expect(preflight.headers[.accessControlAllowHeaders]?.contains("authorization") == true)
            let allowed = try await h.send(.get, "/healthz", headers: [.origin: "http://localhost:3000"])
            #expect(allowed.headers[.accessControlAllowOrigin] == "http://localhost:3000")
            #expect(allowed.headers[.vary] == "Origin")

            for origin in ["https://evil.example", "http://localhost:30000", "null"] {
                let refused = try await h.send(
                    .options, "/v1/webauthn/authentication/options",
                    headers: [.origin: origin, .accessControlRequestMethod: "POST"])
                #expect(refused.headers[.accessControlAllowOrigin] == nil)
                #expect(try await h.send(.get, "/healthz", headers: [.origin: origin]).headers[.accessControlAllowOrigin] == nil)
            }
        }
    }

    @Test func theRelyingPartyIsCheckedAtStartUp() throws {
        var settings = try ServerSettings(issuer: "https://login.example.com")
        #expect(settings.relyingParty.id == "login.example.com")
        #expect(settings.relyingParty.origins == ["https://login.example.com"])
        try settings.setRelyingParty(id: "example.com", origins: ["https://example.com", "https://login.example.com:8443"])
        #expect(settings.relyingParty.id == "example.com")
        for (id, origins) in [
            ("example.org", ["https://example.com"]), ("other.com", []), ("example.com", ["http://example.com"]),
            ("com", ["https://example.com"]), ("example.com", ["https://notexample.com"]),
        ] {
            #expect(throws: ConfigurationError.self, "\(id) \(origins)") {
                try settings.setRelyingParty(id: id, origins: origins)
            }
        }
        #expect(throws: ConfigurationError.self) { try ServerSettings(issuer: "https://10.0.0.1") }
    }
}

private struct RegistrationVerify: Encodable {
    var ceremonyId: String
    var credential: RegistrationResponseJSON
    var name: String?
}

private struct AuthenticationVerify: Encodable {
    var ceremonyId: String
    var credential: AuthenticationResponseJSON
    var clientId: String?
}

extension Date {
    fileprivate var roundedDownToSeconds: Date { Date(timeIntervalSince1970: timeIntervalSince1970.rounded(.down)) }
}
