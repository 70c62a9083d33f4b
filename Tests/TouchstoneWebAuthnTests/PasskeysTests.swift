import Foundation
import Testing
@testable import TouchstoneWebAuthn
import TouchstoneWebAuthnTestSupport

/// The high-level API: options and responses in the WebAuthn L3 JSON form, ceremony state, and the built-in policy.
@Suite struct PasskeysTests {
    let challenge = [UInt8](repeating: 0x5a, count: 32)
    let user = PasskeyUser(id: Fixtures.userHandle, name: "ana", displayName: "Ana")
    let authenticator = SoftAuthenticator(seed: 30)

    func passkeys(
        _ rp: RelyingPartyConfiguration = Fixtures.relyingParty(), attestation: AttestationPolicy = .notRequired,
        dangerous: Bool = false
    ) throws -> Passkeys {
        try Passkeys(relyingParty: rp, attestation: attestation, dangerousUserVerificationNotRequired: dangerous)
    }

    static func json(_ value: some Encodable) throws -> [String: Any] {
        let data = try JSONEncoder().encode(value)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    static func registrationResponse(id: [UInt8], clientDataJSON: [UInt8], attestationObject: [UInt8]) -> RegistrationResponseJSON {
        RegistrationResponseJSON(
            id: Base64URL.encode(id), rawId: Base64URLBytes(id),
            response: AuthenticatorAttestationResponseJSON(
                clientDataJSON: Base64URLBytes(clientDataJSON), attestationObject: Base64URLBytes(attestationObject)))
    }

    static func authenticationResponse(id: [UInt8], assertion: SoftAuthenticator.Assertion, userHandle: [UInt8]? = nil) -> AuthenticationResponseJSON {
        AuthenticationResponseJSON(
            id: Base64URL.encode(id), rawId: Base64URLBytes(id),
            response: AuthenticatorAssertionResponseJSON(
                clientDataJSON: Base64URLBytes(assertion.clientDataJSON), authenticatorData: Base64URLBytes(assertion.authenticatorData),
                signature: Base64URLBytes(assertion.signature), userHandle: userHandle.map(Base64URLBytes.init)))
    }

    func registered(_ passkeys: Passkeys, authenticator: SoftAuthenticator? = nil, signCount: UInt32 = 0) async throws -> Credential {
        let source = authenticator ?? self.authenticator
        let (_, state) = try passkeys.startRegistration(user: user, challenge: challenge, now: Fixtures.now)
        let registration = source.register(challenge: challenge, signCount: signCount)
        return try await passkeys.finishRegistration(
            response: Self.registrationResponse(id: source.credentialID, clientDataJSON: registration.clientDataJSON, attestationObject: registration.attestationObject),
            state: state, now: Fixtures.now)
    }

    @Test func creationOptionsUseTheLevel3JSONNames() throws {
        let passkeys = try passkeys()
        let existing = try Credential(
            id: [1, 2, 3], publicKey: authenticator.coseKey, signCount: 0, backupEligible: true, backupState: true,
            uvInitialized: true, aaguid: [UInt8](repeating: 0, count: 16), attestationFormat: "none", attestationType: .none,
            transports: ["internal"], userHandle: Fixtures.userHandle)
        let (options, _) = try passkeys.startRegistration(user: user, challenge: challenge, excludeCredentials: [existing], now: Fixtures.now)
        let json = try Self.json(options)
        #expect(Set(json.keys) == ["challenge", "rp", "user", "pubKeyCredParams", "timeout", "excludeCredentials", "authenticatorSelection", "attestation"])
        #expect(json["challenge"] as? String == Base64URL.encode(challenge))
        #expect((json["challenge"] as? String)?.contains("=") == false)
        #expect(json["rp"] as? [String: String] == ["id": "example.org", "name": "Example"])
        #expect(json["user"] as? [String: String] == ["id": Base64URL.encode(Fixtures.userHandle), "name": "ana", "displayName": "Ana"])
        let params = try #require(json["pubKeyCredParams"] as? [[String: Any]])
        #expect(params.map { $0["alg"] as? Int } == [-7, -8, -35, -36, -257])
        #expect(params.allSatisfy { $0["type"] as? String == "public-key" })
        #expect(json["timeout"] as? Int == 300_000)
        #expect((json["excludeCredentials"] as? [[String: Any]])?.first?["id"] as? String == "AQID")
        #expect((json["excludeCredentials"] as? [[String: Any]])?.first?["transports"] as? [String] == ["internal"])
        let selection = try #require(json["authenticatorSelection"] as? [String: Any])
        #expect(selection["residentKey"] as? String == "required")
        #expect(selection["requireResidentKey"] as? Bool == true)
        #expect(selection["userVerification"] as? String == "required")
        #expect(json["attestation"] as? String == "none")
        let dangerous = try self.passkeys(dangerous: true)
        let relaxed = try Self.json(try dangerous.startRegistration(user: user, challenge: challenge, now: Fixtures.now).options)
        #expect((relaxed["authenticatorSelection"] as? [String: Any])?["userVerification"] as? String == "preferred")
    }

    @Test func requestOptionsUseTheLevel3JSONNames() async throws {
        let passkeys = try passkeys()
        let credential = try await registered(passkeys)
        let (options, _) = try passkeys.startAuthentication(credentials: [credential], challenge: challenge, now: Fixtures.now)
        let json = try Self.json(options)
        #expect(Set(json.keys) == ["challenge", "timeout", "rpId", "allowCredentials", "userVerification"])
        #expect(json["rpId"] as? String == "example.org")
        #expect(json["userVerification"] as? String == "required")
        #expect((json["allowCredentials"] as? [[String: Any]])?.first?["id"] as? String == Base64URL.encode(credential.id))
        #expect((json["allowCredentials"] as? [[String: Any]])?.first?["type"] as? String == "public-key")
        let discoverable = try Self.json(try passkeys.startDiscoverableAuthentication(challenge: challenge, now: Fixtures.now).options)
        #expect((discoverable["allowCredentials"] as? [Any])?.isEmpty == true)
    }

    @Test func finishesCeremoniesFromBrowserJSON() async throws {
        let passkeys = try passkeys()
        let (_, state) = try passkeys.startRegistration(user: user, challenge: challenge, now: Fixtures.now)
        let stored = try JSONEncoder().encode(state)  // the server keeps the state, e.g. in its database
        let registration = authenticator.register(challenge: challenge, flags: [.userPresent, .userVerified, .backupEligible])
        let id = Base64URL.encode(authenticator.credentialID)
        let browserJSON = """
            {"id":"\(id)","rawId":"\(id)","type":"public-key","authenticatorAttachment":"platform",
             "clientExtensionResults":{"credProps":{"rk":true},"unknownExtension":1},
             "response":{"clientDataJSON":"\(Base64URL.encode(registration.clientDataJSON))",
                         "attestationObject":"\(Base64URL.encode(registration.attestationObject))",
                         "authenticatorData":"\(Base64URL.encode(registration.authenticatorData))",
                         "transports":["internal","hybrid"],"publicKeyAlgorithm":-7}}
            """
        let response = try JSONDecoder().decode(RegistrationResponseJSON.self, from: Data(browserJSON.utf8))
        #expect(response.clientExtensionResults.credProps?.rk == true)
        var credential = try await passkeys.finishRegistration(
            response: response, state: try JSONDecoder().decode(RegistrationState.self, from: stored), now: Fixtures.now)
        #expect(credential.transports == ["internal", "hybrid"])
        #expect(credential.backupEligible && !credential.backupState)

        // The credential survives storage.
        credential = try JSONDecoder().decode(Credential.self, from: try JSONEncoder().encode(credential))

        let (_, authState) = try passkeys.startDiscoverableAuthentication(challenge: challenge, now: Fixtures.now)
        let assertion = authenticator.assert(challenge: challenge, flags: [.userPresent, .userVerified, .backupEligible, .backupState], signCount: 1)
        let assertionJSON = """
            {"id":"\(id)","rawId":"\(id)","type":"public-key","clientExtensionResults":{},
             "response":{"clientDataJSON":"\(Base64URL.encode(assertion.clientDataJSON))",
                         "authenticatorData":"\(Base64URL.encode(assertion.authenticatorData))",
                         "signature":"\(Base64URL.encode(assertion.signature))",
                         "userHandle":"\(Base64URL.encode(Fixtures.userHandle))"}}
            """
        let authResponse = try JSONDecoder().decode(AuthenticationResponseJSON.self, from: Data(assertionJSON.utf8))
        let result = try passkeys.finishAuthentication(
            response: authResponse, state: try JSONDecoder().decode(AuthenticationState.self, from: try JSONEncoder().encode(authState)),
            credential: credential, now: Fixtures.now)
        #expect(result.signCount == 1 && result.backupState && result.userHandle == Fixtures.userHandle)
        try credential.update(from: result)
        #expect(credential.signCount == 1 && credential.backupState)
        // The same assertion again: the counter did not move.
        expectError(.credentialPossiblyCloned, sync: {
            _ = try passkeys.finishAuthentication(response: authResponse, state: authState, credential: credential, now: Fixtures.now)
        })
    }

    @Test func requiresUserVerificationByDefault() async throws {
        let passkeys = try passkeys()
        let (_, state) = try passkeys.startRegistration(user: user, challenge: challenge, now: Fixtures.now)
        let registration = authenticator.register(challenge: challenge, flags: [.userPresent])
        let response = Self.registrationResponse(id: authenticator.credentialID, clientDataJSON: registration.clientDataJSON, attestationObject: registration.attestationObject)
        await expectError(.userNotVerified) { _ = try await passkeys.finishRegistration(response: response, state: state, now: Fixtures.now) }
        let credential = try await registered(passkeys)
        let (_, authState) = try passkeys.startAuthentication(credentials: [credential], challenge: challenge, now: Fixtures.now)
        let assertion = authenticator.assert(challenge: challenge, flags: [.userPresent])
        expectError(.userNotVerified, sync: {
            _ = try passkeys.finishAuthentication(
                response: Self.authenticationResponse(id: credential.id, assertion: assertion), state: authState,
                credential: credential, now: Fixtures.now)
        })
        // Only the dangerous option lets it through.
        let dangerous = try self.passkeys(dangerous: true)
        let (_, relaxed) = try dangerous.startRegistration(user: user, challenge: challenge, now: Fixtures.now)
        #expect(try await !dangerous.finishRegistration(response: response, state: relaxed, now: Fixtures.now).uvInitialized)
    }

    @Test(arguments: W3CVector.all)
    func w3cVectorsThroughTheHighLevelAPI(_ vector: W3CVector) async throws {
        let rp = Fixtures.relyingParty(crossOrigin: Fixtures.crossOrigin(for: vector))
        let strict = try passkeys(rp, attestation: Fixtures.vectorPolicy)
        let relaxed = try passkeys(rp, attestation: Fixtures.vectorPolicy, dangerous: true)
        let response = Self.registrationResponse(
            id: vector.credentialID, clientDataJSON: vector.registrationClientData, attestationObject: vector.attestationObject)
        let (_, strictState) = try strict.startRegistration(user: user, challenge: vector.registrationChallenge, now: Fixtures.now)
        let (_, relaxedState) = try relaxed.startRegistration(user: user, challenge: vector.registrationChallenge, now: Fixtures.now)
        if vector.section == "16.12" {
            await expectError(.unsupportedAlgorithm) { _ = try await relaxed.finishRegistration(response: response, state: relaxedState, now: Fixtures.now) }
            return
        }
        if !vector.registrationUV {
            await expectError(.userNotVerified) { _ = try await strict.finishRegistration(response: response, state: strictState, now: Fixtures.now) }
        }
        let credential = try await relaxed.finishRegistration(response: response, state: relaxedState, now: Fixtures.now)
        let assertion = SoftAuthenticator.Assertion(
            clientDataJSON: vector.authenticationClientData, authenticatorData: vector.authenticatorData, signature: vector.signature)
        let authResponse = Self.authenticationResponse(id: vector.credentialID, assertion: assertion)
        let (_, strictAuth) = try strict.startAuthentication(credentials: [credential], challenge: vector.authenticationChallenge, now: Fixtures.now)
        let (_, relaxedAuth) = try relaxed.startAuthentication(credentials: [credential], challenge: vector.authenticationChallenge, now: Fixtures.now)
        if vector.assertionUV {
            _ = try strict.finishAuthentication(response: authResponse, state: strictAuth, credential: credential, now: Fixtures.now)
        } else {
            expectError(.userNotVerified, sync: {
                _ = try strict.finishAuthentication(response: authResponse, state: strictAuth, credential: credential, now: Fixtures.now)
            })
        }
        #expect(try relaxed.finishAuthentication(response: authResponse, state: relaxedAuth, credential: credential, now: Fixtures.now).signCount == 0)
    }

    @Test func crossOriginVectorsNeedAnRPThatAllowsThem() async throws {
        let passkeys = try passkeys(attestation: Fixtures.vectorPolicy, dangerous: true)
        for section in ["16.4", "16.5"] {
            let vector = W3CVector.section(section)
            let (_, state) = try passkeys.startRegistration(user: user, challenge: vector.registrationChallenge, now: Fixtures.now)
            await expectError(.crossOriginNotAllowed) {
                _ = try await passkeys.finishRegistration(
                    response: Self.registrationResponse(id: vector.credentialID, clientDataJSON: vector.registrationClientData, attestationObject: vector.attestationObject),
                    state: state, now: Fixtures.now)
            }
        }
    }

    @Test func statesExpireAndBelongToOneRelyingParty() async throws {
        let passkeys = try passkeys()
        let (_, state) = try passkeys.startRegistration(user: user, challenge: challenge, now: Fixtures.now)
        let registration = authenticator.register(challenge: challenge)
        let response = Self.registrationResponse(id: authenticator.credentialID, clientDataJSON: registration.clientDataJSON, attestationObject: registration.attestationObject)
        await expectError(.ceremonyExpired) {
            _ = try await passkeys.finishRegistration(response: response, state: state, now: Fixtures.now.addingTimeInterval(300))
        }
        let other = try self.passkeys(try RelyingPartyConfiguration(id: "example.com", name: "Other", origins: ["https://example.com"]))
        await expectError(.ceremonyMismatch) { _ = try await other.finishRegistration(response: response, state: state, now: Fixtures.now) }
        let credential = try await registered(passkeys)
        let (_, authState) = try passkeys.startAuthentication(credentials: [credential], challenge: challenge, now: Fixtures.now)
        let assertion = Self.authenticationResponse(id: credential.id, assertion: authenticator.assert(challenge: challenge))
        expectError(.ceremonyExpired, sync: {
            _ = try passkeys.finishAuthentication(response: assertion, state: authState, credential: credential, now: Fixtures.now.addingTimeInterval(301))
        })
        expectError(.ceremonyMismatch, sync: {
            _ = try other.finishAuthentication(response: assertion, state: authState, credential: credential, now: Fixtures.now)
        })
    }

    @Test func checksTheResponseEnvelope() async throws {
        let passkeys = try passkeys()
        let (_, state) = try passkeys.startRegistration(user: user, challenge: challenge, now: Fixtures.now)
        let registration = authenticator.register(challenge: challenge)
        let good = Self.registrationResponse(id: authenticator.credentialID, clientDataJSON: registration.clientDataJSON, attestationObject: registration.attestationObject)
        var wrongType = good
        wrongType.type = "password"
        var wrongID = good
        wrongID.id = "AAAA"
        var wrongRawID = good
        wrongRawID.rawId = Base64URLBytes([1, 2, 3])
        wrongRawID.id = "AQID"
        var otherAuthData = good
        otherAuthData.response.authenticatorData = Base64URLBytes(AttestationObjectEditor.flip(registration.authenticatorData, at: 36))
        for response in [wrongType, wrongID, wrongRawID, otherAuthData] {
            await expectError(.malformedResponse) { _ = try await passkeys.finishRegistration(response: response, state: state, now: Fixtures.now) }
        }
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(RegistrationResponseJSON.self, from: Data(#"{"id":"AQ","rawId":"AQ==","type":"public-key","clientExtensionResults":{},"response":{"clientDataJSON":"","attestationObject":""}}"#.utf8))
        }
    }

    @Test func refusesWeakChallengesAndBadUsers() async throws {
        let passkeys = try passkeys()
        expectError(.invalidChallenge, sync: { _ = try passkeys.startRegistration(user: user, challenge: [UInt8](repeating: 1, count: 15), now: Fixtures.now) })
        expectError(.invalidChallenge, sync: { _ = try passkeys.startDiscoverableAuthentication(challenge: [], now: Fixtures.now) })
        expectError(.invalidUser, sync: { _ = try passkeys.startRegistration(user: PasskeyUser(id: [], name: "a", displayName: "A"), challenge: challenge, now: Fixtures.now) })
        expectError(.invalidUser, sync: { _ = try passkeys.startRegistration(user: PasskeyUser(id: [UInt8](repeating: 1, count: 65), name: "a", displayName: "A"), challenge: challenge, now: Fixtures.now) })
        expectError(.invalidUser, sync: { _ = try passkeys.startAuthentication(credentials: [], challenge: challenge, now: Fixtures.now) })
        let mine = try await registered(passkeys)
        let theirs = try Credential(
            id: [9], publicKey: mine.publicKey, signCount: 0, backupEligible: false, backupState: false, uvInitialized: true,
            aaguid: mine.aaguid, attestationFormat: "none", attestationType: .none, transports: [], userHandle: [7])
        expectError(.invalidUser, sync: { _ = try passkeys.startAuthentication(credentials: [mine, theirs], challenge: challenge, now: Fixtures.now) })
        expectError(.invalidConfiguration, sync: { _ = try Passkeys(relyingParty: Fixtures.relyingParty(), algorithms: [.ed448]) })
        expectError(.invalidConfiguration, sync: { _ = try Passkeys(relyingParty: Fixtures.relyingParty(), algorithms: []) })
        expectError(.invalidConfiguration, sync: { _ = try Passkeys(relyingParty: Fixtures.relyingParty(), timeout: .seconds(3600)) })
    }

    @Test func excludedCredentialsCannotRegisterAgain() async throws {
        let passkeys = try passkeys()
        let credential = try await registered(passkeys)
        let (_, state) = try passkeys.startRegistration(user: user, challenge: challenge, excludeCredentials: [credential], now: Fixtures.now)
        let registration = authenticator.register(challenge: challenge)
        await expectError(.credentialExcluded) {
            _ = try await passkeys.finishRegistration(
                response: Self.registrationResponse(id: authenticator.credentialID, clientDataJSON: registration.clientDataJSON, attestationObject: registration.attestationObject),
                state: state, now: Fixtures.now)
        }
    }

    @Test func discoverableAssertionsNeedTheUserHandle() async throws {
        let passkeys = try passkeys()
        let credential = try await registered(passkeys)
        let (_, state) = try passkeys.startDiscoverableAuthentication(challenge: challenge, now: Fixtures.now)
        let assertion = authenticator.assert(challenge: challenge)
        for handle in [nil, [UInt8]()] {
            expectError(.userHandleMissing, sync: {
                _ = try passkeys.finishAuthentication(
                    response: Self.authenticationResponse(id: credential.id, assertion: assertion, userHandle: handle),
                    state: state, credential: credential, now: Fixtures.now)
            })
        }
        _ = try passkeys.finishAuthentication(
            response: Self.authenticationResponse(id: credential.id, assertion: assertion, userHandle: Fixtures.userHandle),
            state: state, credential: credential, now: Fixtures.now)
    }

    @Test func decoyCredentialsForUnknownUsersNeverVerify() async throws {
        let passkeys = try passkeys()
        let credential = try await registered(passkeys)
        let decoy = PublicKeyCredentialDescriptorJSON(id: Base64URLBytes([UInt8](repeating: 0xde, count: 32)))
        let (options, state) = try passkeys.startAuthentication(userHandle: [0xde, 0xad], allowCredentials: [decoy], challenge: challenge, now: Fixtures.now)
        #expect(options.allowCredentials == [decoy])
        expectError(.credentialNotAllowed, sync: {
            _ = try passkeys.finishAuthentication(
                response: Self.authenticationResponse(id: credential.id, assertion: authenticator.assert(challenge: challenge)),
                state: state, credential: credential, now: Fixtures.now)
        })
    }

    @Test func restoringACredentialChecksWhatItStores() throws {
        expectError(.malformedCredentialPublicKey, sync: {
            _ = try Credential(
                id: [1], publicKey: [0xa0], signCount: 0, backupEligible: false, backupState: false, uvInitialized: false,
                aaguid: [], attestationFormat: "none", attestationType: .none, transports: [], userHandle: [1])
        })
        expectError(.credentialIdTooLong, sync: {
            _ = try Credential(
                id: [UInt8](repeating: 1, count: 1024), publicKey: authenticator.coseKey, signCount: 0, backupEligible: false,
                backupState: false, uvInitialized: false, aaguid: [], attestationFormat: "none", attestationType: .none,
                transports: [], userHandle: [1])
        })
        #expect(throws: (any Error).self) {
            try JSONDecoder().decode(Credential.self, from: Data(#"{"id":"AQ","publicKey":"oA","signCount":0,"backupEligible":false,"backupState":false,"uvInitialized":false,"aaguid":"","attestationFormat":"none","attestationType":"none","transports":[],"userHandle":"AQ"}"#.utf8))
        }
    }
}
