import Crypto
import Foundation
import HummingbirdTesting
import Testing
import TouchstoneAttestation
import TouchstoneInsecureTestAttestation
import TouchstoneProtocol
import TouchstoneTestSupport
import TouchstoneWebAuthnTestSupport

@testable import TouchstoneDomain
@testable import TouchstoneStorage

/// Hardware key attestation at enrolment (PROTOCOL "Hardware key attestation"), with a test CA for Android chains
/// and a test root for App Attest, both trusted as the server's insecure extra roots.
@Suite struct AttestationEnrollmentTests {
    /// Runs `body` on a server that trusts `fixtures`' roots, with the attested app at `requirement`.
    static func run(
        _ fixtures: AttestationFixtures, requirement: AttestationRequirement = .required,
        statusList: AttestationStatusList = AttestationStatusList(),
        _ body: @Sendable @escaping (Harness, CapturingLogHandler) async throws -> Void
    ) async throws {
        let anchors = try fixtures.trustAnchors()
        let log = CapturingLogHandler()
        try await Harness.run(
            configure: { settings in
                settings.attestationTrustAnchors = anchors
                settings.androidAttestationStatus = statusList
            }, logger: log.makeLogger()
        ) { h in
            try await h.store.saveApp(AttestationFixtures.app(requirement), at: h.now)
            try await body(h, log)
        }
    }

    @Test func requiredAttestationRefusesAnUnattestedEnrolment() async throws {
        try await Self.run(try AttestationFixtures()) { h, log in
            try await h.createAccount()
            let started = try await h.startEnrollment(clientId: AttestationFixtures.clientId)
            let before = try await ProtocolTests().snapshot(h)
            try h.expectProblem(
                try await h.completeEnrollment(try await TestDevice(), started, attestation: nil), 403,
                .attestationRequired)
            #expect(try await ProtocolTests().snapshot(h) == before)
            // The default policy does not require one.
            #expect(try await h.completeEnrollment(try await TestDevice(), try await h.startEnrollment(), attestation: nil)
                .status == .created)
        }
    }

    @Test func validAndroidAttestationsEnrolInTEEAndStrongBoxAndShowInTheDeviceList() async throws {
        let fixtures = try AttestationFixtures()
        try await Self.run(fixtures) { h, log in
            let tee = try await TestDevice()
            let teeEnrolled = try await h.enrollAttested(tee, username: "ana") { started in
                try AndroidAttestationInput(tee, challenge: started.challenge, ca: fixtures.ca).attestation()
            }
            let strongBox = try await TestDevice()
            let strongBoxEnrolled = try await h.enrollAttested(strongBox, username: "bob") { started in
                var input = AndroidAttestationInput(strongBox, challenge: started.challenge, ca: fixtures.ca)
                for key in [\AndroidAttestationInput.device, \.biometric] {
                    input[keyPath: key].attestationSecurityLevel = 2
                    input[keyPath: key].keyMintSecurityLevel = 2
                }
                return try input.attestation()
            }
            // One key in StrongBox and the other in a TEE is a TEE device.
            let mixed = try await TestDevice()
            let mixedEnrolled = try await h.enrollAttested(mixed, username: "cy") { started in
                var input = AndroidAttestationInput(mixed, challenge: started.challenge, ca: fixtures.ca)
                input.device.attestationSecurityLevel = 2
                input.device.keyMintSecurityLevel = 2
                return try input.attestation()
            }
            // A device without a biometric key sends no biometric chain.
            let pinOnly = try await TestDevice(biometric: false)
            let pinOnlyEnrolled = try await h.enrollAttested(pinOnly, username: "dee") { started in
                var input = AndroidAttestationInput(pinOnly, challenge: started.challenge, ca: fixtures.ca)
                input.sendBiometricChain = false
                return try input.attestation()
            }
            for (enrolled, kind) in [
                (teeEnrolled, "android-tee"), (strongBoxEnrolled, "android-strongbox"), (mixedEnrolled, "android-tee"),
                (pinOnlyEnrolled, "android-tee"),
            ] {
                let response = try await h.send(.get, "/v1/devices", headers: h.bearer(enrolled.session))
                let devices = try #require(try h.jsonObject(response)["devices"] as? [[String: Any]])
                #expect(devices.count == 1)
                #expect(devices.first?["attestation"] as? String == kind)
                let stored = try #require(try await h.store.device(id: enrolled.deviceId))
                #expect(stored.attestation?.kind == DeviceAttestationKind(rawValue: kind))
                // What the attestation proved of the app's build is kept, for every app the device acts for.
                #expect(
                    stored.attestation?.build
                        == .android(
                            packages: [AttestationFixtures.packageName],
                            signingCertificateSHA256: [HexDigits.text(AttestationFixtures.signingCertificateSHA256)]))
            }
        }
    }

    @Test func aValidAppAttestEnrolsAndKeepsTheKeyAndReceipt() async throws {
        let fixtures = try AttestationFixtures()
        try await Self.run(fixtures) { h, log in
            let device = try await TestDevice()
            let enrolled = try await h.enrollAttested(device, username: "ana") { started in
                try fixtures.apple.attestation(of: device, challenge: started.challenge, now: h.now)
            }
            let stored = try #require(try await h.store.device(id: enrolled.deviceId)?.attestation)
            #expect(stored.kind == .appleAppAttest)
            #expect(stored.appAttestKeyId == Base64URL.encode(fixtures.apple.keyID))
            #expect(stored.appAttestReceipt == Base64URL.encode([0x30, 0x80]))
            let point = try #require(stored.appAttestPublicKey.flatMap(Base64URL.decode))
            #expect(Array(SHA256.hash(data: point)) == fixtures.apple.keyID)
            let response = try await h.send(.get, "/v1/devices", headers: h.bearer(enrolled.session))
            let devices = try #require(try h.jsonObject(response)["devices"] as? [[String: Any]])
            #expect(devices.first?["attestation"] as? String == "apple-appattest")
        }
    }

    /// A second device waits for the first one's approval; what its attestation proved is kept meanwhile.
    @Test func anApprovedDeviceKeepsItsAttestation() async throws {
        let fixtures = try AttestationFixtures()
        try await Self.run(fixtures) { h, _ in
            let phone = try await TestDevice()
            let phoneEnrolled = try await h.enrollAttested(phone, username: "ana") { started in
                try AndroidAttestationInput(phone, challenge: started.challenge, ca: fixtures.ca).attestation()
            }
            let tablet = try await TestDevice(name: "Ana's tablet")
            let started = try await h.startEnrollment(clientId: AttestationFixtures.clientId)
            var input = AndroidAttestationInput(tablet, challenge: started.challenge, ca: fixtures.ca)
            for key in [\AndroidAttestationInput.device, \.biometric] {
                input[keyPath: key].attestationSecurityLevel = 2
                input[keyPath: key].keyMintSecurityLevel = 2
            }
            let response = try await h.completeEnrollment(tablet, started, attestation: try input.attestation())
            #expect(response.status == .accepted)
            let pending = try h.decode(EnrollmentPending.self, response)
            let item = try #require(try await h.inboxItems(phone, deviceId: phoneEnrolled.deviceId).first)
            let decision = try await phone.decision(
                deviceId: phoneEnrolled.deviceId, challenge: item.challenge, number: pending.number, now: h.now)
            #expect(try await h.decide("enrollments", item.id, decision).status == .ok)
            let devices = try await h.store.devices(userId: phoneEnrolled.session.userId)
            #expect(devices.count == 2)
            #expect(Set(devices.compactMap(\.attestation?.kind)) == [.androidTEE, .androidStrongBox])
        }
    }

    @Test func aDeviceWithoutAttestationIsListedWithNull() async throws {
        try await Harness.run { h in
            let enrolled = try await h.enroll(try await TestDevice())
            let response = try await h.send(.get, "/v1/devices", headers: h.bearer(enrolled.session))
            let devices = try #require(try h.jsonObject(response)["devices"] as? [[String: Any]])
            #expect(devices.first?.keys.contains("attestation") == true)
            #expect(devices.first?["attestation"] is NSNull)
        }
    }

    /// Each failed Android check, changing exactly one thing from a valid attestation: 401 `attestation_invalid`, the
    /// same body every time, nothing stored; then the enrolment still completes with the valid attestation.
    @Test func eachFailedAndroidCheckIsTheSameRefusalAndStoresNothing() async throws {
        let fixtures = try AttestationFixtures()
        let stranger = try InsecureTestAttestationCA()
        let otherChallenge = Array(repeating: UInt8(7), count: 32)
        let negatives: [(AttestationError.Code, @Sendable (inout AndroidAttestationInput) -> Void)] = [
            (.challengeMismatch, { $0.device.challenge = otherChallenge }),
            (.securityLevelInsufficient, { $0.device.attestationSecurityLevel = 0 }),
            (.securityLevelInsufficient, { $0.biometric.keyMintSecurityLevel = 0 }),
            (.purposeNotSign, { $0.device.purposes = [3] }),
            (.originNotGenerated, { $0.device.origin = 2 }),
            (.originNotGenerated, { $0.biometric.origin = nil }),
            (.bootStateNotVerified, { $0.device.verifiedBootState = 2 }),
            (.deviceNotLocked, { $0.biometric.deviceLocked = false }),
            (.applicationNotAllowed, { $0.device.packageName = "com.example.other" }),
            (.applicationNotAllowed, { $0.device.signingCertificateSHA256 = Array(repeating: 0xcd, count: 32) }),
            (.userAuthTypeNotBiometric, { $0.biometric.userAuthType = 3 }),
            (.userAuthTypeNotBiometric, { $0.biometric.userAuthType = nil }),
            (.noAuthRequired, { $0.biometric.noAuthRequired = true }),
            (.authTimeoutPresent, { $0.biometric.authTimeout = 300 }),
            (.keyMismatch, { $0.biometricKey = $0.deviceKey }),
            (.missingKeyDescription, { $0.withKeyDescription = false }),
            (.untrustedRoot, { $0.ca = stranger }),
            (.certificateOutsideValidity, { $0.leafValidity = Date(timeIntervalSince1970: 1_600_000_000)...Date(timeIntervalSince1970: 1_700_000_000) }),
            (.keyMismatch, { $0.sendBiometricChain = false }),
            (.chainInvalid, { input in
                input.editDeviceChain = { chain in
                    var chain = chain
                    chain[0][chain[0].count - 1] ^= 0x01
                    return chain
                }
            }),
            // Without its issuer the leaf would have to be signed by the root itself.
            (.untrustedRoot, { input in input.editDeviceChain = { [$0[0], $0[2]] } }),
        ]
        try await Self.run(fixtures) { h, log in
            try await h.createAccount()
            let started = try await h.startEnrollment(clientId: AttestationFixtures.clientId)
            let device = try await TestDevice()
            let valid = AndroidAttestationInput(device, challenge: started.challenge, ca: fixtures.ca)
            var attestations = try negatives.map { code, change in
                var input = valid
                change(&input)
                return (code, try input.attestation())
            }
            attestations += [
                (.malformedCertificate, .androidKey(deviceKey: ["not base64url!"], biometricKey: nil)),
                (.malformedCertificate, .androidKey(deviceKey: [Base64URL.encode([0x30, 0x03, 0x02, 0x01])], biometricKey: nil)),
                (.chainInvalid, .androidKey(deviceKey: [], biometricKey: [])),
            ]
            try await Self.expectRefusals(attestations, of: device, started, h, log)
            let response = try await h.completeEnrollment(device, started, attestation: try valid.attestation())
            #expect(response.status == .created)
        }
    }

    /// Each failed App Attest check, changing exactly one thing: the same refusal, nothing stored.
    @Test func eachFailedAppAttestCheckIsTheSameRefusalAndStoresNothing() async throws {
        let fixtures = try AttestationFixtures()
        try await Self.run(fixtures) { h, log in
            try await h.createAccount()
            let started = try await h.startEnrollment(clientId: AttestationFixtures.clientId)
            let device = try await TestDevice()
            let apple = fixtures.apple
            func attestation(_ tweak: (inout AppAttestFixture) -> Void) throws -> EnrollmentAttestation {
                try apple.attestation(of: device, challenge: started.challenge, now: h.now, tweak: tweak)
            }
            let valid = try attestation { _ in }
            guard case .appleAppAttest(let keyId, let object) = valid else { throw CancellationError() }
            let otherDevice = try await TestDevice()
            let attestations: [(AttestationError.Code, EnrollmentAttestation)] = [
                (.nonceMismatch, try apple.attestation(of: otherDevice, challenge: started.challenge, now: h.now)),
                (.nonceMismatch, try apple.attestation(of: device, challenge: Base64URL.encode(Array(repeating: 1, count: 32)), now: h.now)),
                (.counterNotZero, try attestation { $0.counter = 1 }),
                (.appIDNotAllowed, try attestation { $0.rpID = "ABCDE12345.com.example.other" }),
                (.environmentNotAllowed, try attestation { $0.aaguid = Array("appattestdevelop".utf8) }),
                (.environmentNotAllowed, try attestation { $0.aaguid = Array(repeating: 0, count: 16) }),
                (.credentialIDMismatch, try attestation { $0.credentialID = Array(repeating: 9, count: 32) }),
                (.certificateOutsideValidity, try attestation { $0.time = h.now - 3 * 86_400 }),
                (.untrustedRoot, try AppAttestFixture().attestation(of: device, challenge: started.challenge, now: h.now)),
                (.keyIDMismatch, .appleAppAttest(keyId: Base64URL.encode(Array(repeating: 5, count: 32)), attestationObject: object)),
                (.malformedAttestationObject, .appleAppAttest(keyId: "*", attestationObject: object)),
                (.malformedAttestationObject, .appleAppAttest(keyId: keyId, attestationObject: "*")),
                (.malformedAttestationObject, .appleAppAttest(keyId: keyId, attestationObject: Base64URL.encode([0xff, 0x00]))),
            ]
            try await Self.expectRefusals(attestations, of: device, started, h, log)
            #expect(try await h.completeEnrollment(device, started, attestation: valid).status == .created)
        }
    }

    @Test func appAttestDevelopmentKeysNeedAnAppThatAllowsThem() async throws {
        let fixtures = try AttestationFixtures()
        try await Self.run(fixtures) { h, log in
            try await h.store.saveApp(AttestationFixtures.app(.required, appleDevelopment: true), at: h.now)
            let device = try await TestDevice()
            let enrolled = try await h.enrollAttested(device, username: "ana") { started in
                try fixtures.apple.attestation(of: device, challenge: started.challenge, now: h.now) {
                    $0.aaguid = Array("appattestdevelop".utf8)
                }
            }
            #expect(try await h.store.device(id: enrolled.deviceId)?.attestation?.kind == .appleAppAttest)
        }
    }

    @Test func aChainWithARevokedIntermediateIsRefused() async throws {
        let fixtures = try AttestationFixtures()
        for status in ["REVOKED", "SUSPENDED"] {
            let list = try AttestationStatusList(
                json: Data(#"{"entries":{"\#(fixtures.ca.intermediateSerial)":{"status":"\#(status)","reason":"KEY_COMPROMISE"}}}"#.utf8))
            try await Self.run(fixtures, statusList: list) { h, log in
                try await h.createAccount()
                let started = try await h.startEnrollment(clientId: AttestationFixtures.clientId)
                let device = try await TestDevice()
                let attestation = try AndroidAttestationInput(device, challenge: started.challenge, ca: fixtures.ca)
                    .attestation()
                try await Self.expectRefusals([(.certificateRevoked, attestation)], of: device, started, h, log)
            }
        }
    }

    /// Whatever the policy, an attestation that is sent must pass.
    @Test func aFailedAttestationIsRefusedEvenWhenNoneIsRequired() async throws {
        let fixtures = try AttestationFixtures()
        try await Self.run(fixtures, requirement: .none) { h, log in
            try await h.createAccount()
            let started = try await h.startEnrollment(clientId: AttestationFixtures.clientId)
            let device = try await TestDevice()
            var input = AndroidAttestationInput(device, challenge: started.challenge, ca: fixtures.ca)
            input.device.deviceLocked = false
            try await Self.expectRefusals([(.deviceNotLocked, try input.attestation())], of: device, started, h, log)
            #expect(try await h.completeEnrollment(device, started, attestation: nil).status == .created)
        }
    }

    @Test func anAttestationOfTheWrongShapeOrAnUnknownFormatIsAMalformedRequest() async throws {
        try await Harness.run { h in
            try await h.createAccount()
            let started = try await h.startEnrollment()
            let device = try await TestDevice()
            let completion = try await device.completion(
                enrollmentId: started.enrollmentId, challenge: started.challenge, pin: Harness.pin, now: h.now)
            let base = try #require(
                try JSONSerialization.jsonObject(with: try WireCoding.encoder().encode(completion)) as? [String: Any])
            let before = try await ProtocolTests().snapshot(h)
            for attestation: Any in [
                ["format": "tpm", "deviceKey": ["AA"]], ["deviceKey": ["AA"]], ["format": "android-key"],
                ["format": "android-key", "deviceKey": "AA"], ["format": "android-key", "deviceKey": [1]],
                ["format": "apple-appattest", "keyId": "AA"], 5, "android-key", [["format": "android-key"]],
            ] {
                var body = base
                body["attestation"] = attestation
                let raw = String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)
                try h.expectProblem(
                    try await h.send(.post, "/v1/enrollments/\(started.enrollmentId)/complete", raw: raw,
                        headers: [.contentType: "application/json"]),
                    400, .invalidRequest)
            }
            #expect(try await ProtocolTests().snapshot(h) == before)
        }
    }

    /// Sends each attestation: each answers 401 `attestation_invalid` with one body, the log names the check that
    /// failed, and no table changes.
    static func expectRefusals(
        _ attestations: [(AttestationError.Code, EnrollmentAttestation)], of device: TestDevice,
        _ started: EnrollmentStarted, _ h: Harness, _ log: CapturingLogHandler,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let before = try await ProtocolTests().snapshot(h)
        var bodies: Set<String> = []
        for (code, attestation) in attestations {
            let response = try await h.completeEnrollment(device, started, attestation: attestation)
            #expect(response.status.code == 401, "\(code)", sourceLocation: sourceLocation)
            #expect(try h.problem(response).code == .attestationInvalid, "\(code)", sourceLocation: sourceLocation)
            bodies.insert(String(buffer: response.body))
            let refusal = log.lines.last { $0.contains("enrolment attestation refused") } ?? ""
            #expect(refusal.contains("\"check\": \(code)"), "\(code): \(refusal)", sourceLocation: sourceLocation)
            #expect(!String(buffer: response.body).contains(code.rawValue), sourceLocation: sourceLocation)
        }
        #expect(bodies.count == 1, "\(bodies)", sourceLocation: sourceLocation)
        #expect(try await ProtocolTests().snapshot(h) == before, sourceLocation: sourceLocation)
    }
}
