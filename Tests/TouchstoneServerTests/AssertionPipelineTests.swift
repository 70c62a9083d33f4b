import Foundation
import HummingbirdTesting
import Testing
import TouchstoneAttestation
import TouchstoneCrypto
import TouchstoneInsecureTestAttestation
import TouchstoneProtocol
import TouchstoneTestSupport
import TouchstoneWebAuthnTestSupport

@testable import TouchstoneDomain
@testable import TouchstoneStorage

/// One pipeline for every device assertion (``DeviceAssertionPipeline``): logins, refreshes and decisions all apply
/// the acting app's policy — biometrics, compromise claimed or stored, attestation — so single sign-on from another
/// app of the same publisher cannot get around any of it (issue 29, findings 2 and 3).
@Suite struct AssertionPipelineTests {
    static let publisher = "attested"
    /// An app of the attested app's publisher that requires nothing.
    static let lenient = "com.example.attested.lenient"

    /// Runs `body` on a server that trusts the test attestation roots, with the attested app (attestation required)
    /// and ``lenient`` saved.
    static func run(_ body: @Sendable @escaping (Harness, AttestationFixtures) async throws -> Void) async throws {
        let fixtures = try AttestationFixtures()
        let anchors = try fixtures.trustAnchors()
        try await Harness.run(configure: { $0.attestationTrustAnchors = anchors }) { h in
            try await h.store.saveApp(AttestationFixtures.app(.required), at: h.now)
            try await h.saveApp(AppPolicy(clientId: lenient, publisher: publisher))
            try await body(h, fixtures)
        }
    }

    /// An app of the attested publisher requiring attestation of the builds `apps`.
    static func requiring(_ clientId: String, _ apps: AttestedApps) -> AppRecord {
        AppRecord(
            clientId: clientId, publisher: publisher,
            policy: AppPolicy(clientId: clientId, publisher: publisher, attestation: .required), attestedApps: apps)
    }

    @Test func aDeviceEnrolledWithoutAttestationCannotSignOnToAnAppOfItsPublisherThatRequiresIt() async throws {
        try await Self.run { h, _ in
            let phone = try await TestDevice()
            let enrolled = try await h.enroll(phone, clientId: Self.lenient)
            // Its own app lets it in, by fingerprint and by PIN.
            #expect(try await h.login(phone, deviceId: enrolled.deviceId, clientId: Self.lenient).status == .created)
            // The app that requires attestation does not, whichever key signs; the PIN is not even counted.
            try h.expectProblem(
                try await h.login(phone, deviceId: enrolled.deviceId, clientId: AttestationFixtures.clientId), 403,
                .attestationRequired)
            try h.expectProblem(
                try await h.login(phone, deviceId: enrolled.deviceId, pin: "975310", clientId: AttestationFixtures.clientId),
                403, .attestationRequired)
            #expect(try await h.store.device(id: enrolled.deviceId)?.pinFailures == 0)
            let sessions = try await h.store.unendedSessions(userId: enrolled.session.userId, activeSince: .distantPast)
            #expect(!sessions.contains { $0.clientId == AttestationFixtures.clientId })
        }
    }

    @Test func aSessionOfAnAppThatCameToRequireAttestationIsNotRefreshedForAnUnattestedDevice() async throws {
        try await Self.run { h, _ in
            let later = "com.example.attested.later"
            try await h.saveApp(AppPolicy(clientId: later, publisher: Self.publisher))
            let phone = try await TestDevice()
            let enrolled = try await h.enroll(phone, clientId: Self.lenient)
            let login = try await h.login(phone, deviceId: enrolled.deviceId, clientId: later)
            #expect(login.status == .created)
            let session = try h.decode(Session.self, login)
            try await h.store.saveApp(Self.requiring(later, AttestedApps()), at: h.now)
            let proof = try await phone.request(deviceId: enrolled.deviceId, path: "/v1/sessions/refresh", now: h.now)
            let refused = try await h.send(
                .post, "/v1/sessions/refresh", json: RefreshRequest(refreshToken: session.refreshToken),
                headers: [.authorization: "TouchstoneDevice \(proof)"])
            try h.expectProblem(refused, 403, .attestationRequired)
            // Nothing was rotated: with the requirement lifted, the same refresh token still works.
            try await h.saveApp(AppPolicy(clientId: later, publisher: Self.publisher))
            let again = try await phone.request(deviceId: enrolled.deviceId, path: "/v1/sessions/refresh", now: h.now)
            let refreshed = try await h.send(
                .post, "/v1/sessions/refresh", json: RefreshRequest(refreshToken: session.refreshToken),
                headers: [.authorization: "TouchstoneDevice \(again)"])
            #expect(refreshed.status == .ok)
        }
    }

    @Test func anUnattestedDeviceCannotDecideForAnAppThatRequiresAttestation() async throws {
        try await Self.run { h, _ in
            let phone = try await TestDevice()
            let enrolled = try await h.enroll(phone, clientId: Self.lenient)
            let key = try await h.newAPIKey(for: AttestationFixtures.clientId)
            let asked = try await DecisionPolicyTests().confirmation(h, key: key)
            let item = try await DecisionPolicyTests().item(h, phone, enrolled.deviceId, asked)
            let decision = try await phone.decision(
                deviceId: enrolled.deviceId, challenge: item.challenge, txn: DecisionPolicyTests.txn, now: h.now)
            try h.expectProblem(try await h.decide("confirmations", asked, decision), 403, .attestationRequired)
            #expect(try await DecisionPolicyTests().confirmationState(h, key: key, asked).status == .pending)
            // The lenient app's own request is decided.
            let lenientKey = try await h.newAPIKey(for: Self.lenient)
            let own = try await DecisionPolicyTests().confirmation(h, key: lenientKey)
            let ownItem = try await DecisionPolicyTests().item(h, phone, enrolled.deviceId, own)
            let approval = try await phone.decision(
                deviceId: enrolled.deviceId, challenge: ownItem.challenge, txn: DecisionPolicyTests.txn, now: h.now)
            #expect(try await h.decide("confirmations", own, approval).status == .ok)
        }
    }

    @Test func anAttestedDeviceActsOnlyForAppsThatAllowTheBuildItsAttestationProved() async throws {
        try await Self.run { h, fixtures in
            let digest = HexDigits.text(AttestationFixtures.signingCertificateSHA256)
            let sameBuild = "com.example.attested.same"
            let otherBuild = "com.example.attested.other"
            let anyBuild = "com.example.attested.any"
            try await h.store.saveApp(
                Self.requiring(
                    sameBuild,
                    AttestedApps(android: [
                        AttestedAndroidApp(packageName: AttestationFixtures.packageName, signingCertificateSHA256: digest)
                    ])), at: h.now)
            // The same package signed by another certificate is another build.
            try await h.store.saveApp(
                Self.requiring(
                    otherBuild,
                    AttestedApps(
                        android: [
                            AttestedAndroidApp(
                                packageName: AttestationFixtures.packageName,
                                signingCertificateSHA256: String(repeating: "cd", count: 32))
                        ], appleAppIds: [AppAttestFixture.appID])), at: h.now)
            try await h.store.saveApp(Self.requiring(anyBuild, AttestedApps()), at: h.now)
            let phone = try await TestDevice()
            let enrolled = try await h.enrollAttested(phone, username: "ana") { started in
                try AndroidAttestationInput(phone, challenge: started.challenge, ca: fixtures.ca).attestation()
            }
            for clientId in [AttestationFixtures.clientId, sameBuild, anyBuild, Self.lenient] {
                #expect(try await h.login(phone, deviceId: enrolled.deviceId, clientId: clientId).status == .created)
            }
            try h.expectProblem(
                try await h.login(phone, deviceId: enrolled.deviceId, clientId: otherBuild), 403, .attestationRequired)
        }
    }

    @Test func anAppAttestedDeviceOfTheDevelopmentEnvironmentActsOnlyForAppsThatAllowIt() async throws {
        try await Self.run { h, fixtures in
            try await h.store.saveApp(AttestationFixtures.app(.required, appleDevelopment: true), at: h.now)
            let production = "com.example.attested.production"
            try await h.store.saveApp(
                Self.requiring(production, AttestedApps(appleAppIds: [AppAttestFixture.appID])), at: h.now)
            let phone = try await TestDevice()
            let enrolled = try await h.enrollAttested(phone, username: "ana") { started in
                try fixtures.apple.attestation(of: phone, challenge: started.challenge, now: h.now) {
                    $0.aaguid = Array("appattestdevelop".utf8)
                }
            }
            #expect(
                try await h.login(phone, deviceId: enrolled.deviceId, clientId: AttestationFixtures.clientId).status
                    == .created)
            try h.expectProblem(
                try await h.login(phone, deviceId: enrolled.deviceId, clientId: production), 403, .attestationRequired)
        }
    }

    @Test func aDeviceStoredAsCompromisedIsRefusedAtLoginByAnAppThatRefusesThemThoughItsAssertionSaysNothing()
        async throws
    {
        try await Harness.run { h in
            try await h.saveApp(AppPolicy(clientId: "com.example.lax", publisher: "demo", refuseCompromisedDevices: false))
            let rooted = try await TestDevice(compromised: true)
            let enrolled = try await h.enroll(rooted, clientId: "com.example.lax")
            #expect(try await h.login(rooted, deviceId: enrolled.deviceId, clientId: "com.example.lax").status == .created)
            try h.expectProblem(
                try await h.login(rooted, deviceId: enrolled.deviceId, clientId: "com.example.demo"), 403,
                .deviceCompromised)
            try h.expectProblem(
                try await h.login(rooted, deviceId: enrolled.deviceId, pin: Harness.pin, clientId: "com.example.demo"),
                403, .deviceCompromised)
        }
    }

    @Test func aDecisionOnANewDeviceFollowsThePolicyOfTheDecidingDevicesApp() async throws {
        try await Harness.run { h in
            // The phone, compromised, enrolled under an app that allows that; the new device enrols under the demo
            // app, which refuses compromised devices. The phone's own app decides whether the phone may approve.
            try await h.saveApp(AppPolicy(clientId: "com.example.lax", publisher: "demo", refuseCompromisedDevices: false))
            let phone = try await TestDevice(compromised: true)
            let enrolled = try await h.enroll(phone, clientId: "com.example.lax")
            let tablet = try await TestDevice(name: "Ana's tablet")
            let started = try await h.startEnrollment(clientId: "com.example.demo")
            let response = try await h.completeEnrollment(tablet, started)
            #expect(response.status == .accepted)
            let pending = try h.decode(EnrollmentPending.self, response)
            let item = try #require(try await h.inboxItems(phone, deviceId: enrolled.deviceId).first)
            let approval = try await phone.decision(
                deviceId: enrolled.deviceId, challenge: item.challenge, number: pending.number, now: h.now)
            let decided = try await h.decide("enrollments", item.id, approval)
            #expect(decided.status == .ok)
            #expect(try h.decode(DecisionRecorded.self, decided).status == .approved)

            // Once its own app refuses compromised devices, the phone may not approve a new device, though the app
            // the new device enrols under allows them.
            try await h.saveApp(AppPolicy(clientId: "com.example.lax", publisher: "demo"))
            try await h.saveApp(AppPolicy(clientId: "com.example.lax2", publisher: "demo", refuseCompromisedDevices: false))
            let laptop = try await TestDevice(name: "Ana's laptop")
            let next = try await h.completeEnrollment(laptop, try await h.startEnrollment(clientId: "com.example.lax2"))
            #expect(next.status == .accepted)
            let asked = try h.decode(EnrollmentPending.self, next)
            let nextItem = try #require(
                try await h.inboxItems(phone, deviceId: enrolled.deviceId).first { $0.id == asked.enrollmentId })
            let refused = try await phone.decision(
                deviceId: enrolled.deviceId, challenge: nextItem.challenge, number: asked.number, now: h.now)
            try h.expectProblem(try await h.decide("enrollments", nextItem.id, refused), 403, .deviceCompromised)
        }
    }
}
