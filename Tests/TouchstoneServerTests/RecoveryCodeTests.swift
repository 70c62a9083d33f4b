import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
import TouchstoneCrypto
import TouchstoneProtocol
import TouchstoneTestSupport

@testable import TouchstoneDomain
@testable import TouchstoneHTTP
@testable import TouchstoneServer
@testable import TouchstoneStorage

/// Recovery codes: made behind step-up, shown once, stored as digests, each spent once by the enrolment that
/// completes with it, and the rule for when a new device needs approval, a code, or nothing.
@Suite struct RecoveryCodeTests {
    /// `xxxx-xxxx-xxxx` in lowercase RFC 4648 base32.
    static func hasTheShape(_ code: String) -> Bool {
        code.wholeMatch(of: /[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}/) != nil
    }

    func remaining(_ h: Harness, _ session: Session) async throws -> Int {
        let response = try await h.send(.get, "/v1/account", headers: h.bearer(session))
        #expect(response.status == .ok)
        return try h.decode(AccountProfile.self, response).recoveryCodesRemaining
    }

    @Test func codesNeedAStepUpAndAreTenDistinctCodesOfTheShapeStoredAsDigests() async throws {
        try await Harness.run { h in
            let phone = try await TestDevice()
            let enrolled = try await h.enroll(phone)
            try h.expectProblem(
                try await h.send(.post, "/v1/account/recovery-codes", headers: h.bearer(enrolled.session)), 403,
                .stepUpRequired)
            // A password session cannot step up, so it never makes codes.
            try h.expectProblem(
                try await h.send(.post, "/v1/account/recovery-codes", headers: h.bearer(try await h.pageSession())), 403,
                .stepUpRequired)
            #expect(try await remaining(h, enrolled.session) == 0)
            #expect(try await h.store.unusedRecoveryCodeHashes(userId: enrolled.session.userId).isEmpty)

            let response = try await h.send(
                .post, "/v1/account/recovery-codes", headers: h.bearer(try await h.stepUp(enrolled.session)))
            #expect(response.status == .created)
            #expect(response.headers[.cacheControl] == "no-store")
            #expect(Set(try h.jsonObject(response).keys) == ["codes"])
            let codes = try h.decode(RecoveryCodes.self, response).codes
            #expect(codes.count == 10)
            #expect(Set(codes).count == 10)
            #expect(codes.allSatisfy(Self.hasTheShape))
            #expect(try await remaining(h, enrolled.session) == 10)
            // Only digests are stored: neither the codes nor their plain SHA-256.
            let stored = try await h.store.unusedRecoveryCodeHashes(userId: enrolled.session.userId)
            #expect(stored.count == 10)
            for code in codes {
                #expect(!stored.contains(code))
                #expect(!stored.contains(SecretDigest.sha256(code)))
                #expect(stored.contains(RecoveryCode.digest(try #require(RecoveryCode.normalized(code)), userId: enrolled.session.userId)))
            }
        }
    }

    @Test func thePasswordAloneWaitsForApprovalAndACodeJoinsAtOnce() async throws {
        try await Harness.run { h in
            let phone = try await TestDevice()
            let enrolled = try await h.enroll(phone)
            let codes = try await h.createRecoveryCodes(enrolled.session)

            // The password alone: 202, approval pending.
            let tablet = try await TestDevice(name: "Ana's tablet")
            #expect(try await h.completeEnrollment(tablet, try await h.startEnrollment()).status == .accepted)

            // The password and a code (typed in capitals, without hyphens): 201, and the code is spent.
            let laptop = try await TestDevice(name: "Ana's new phone")
            let typed = codes[3].uppercased().replacingOccurrences(of: "-", with: "")
            let joined = try await h.enrollWithCode(laptop, code: typed)
            #expect(joined.session.acr == "aal2")
            #expect(try await remaining(h, enrolled.session) == 9)
            #expect(try await h.login(laptop, deviceId: joined.deviceId).status == .created)
            try h.expectProblem(try await h.startEnrollment(recoveryCode: codes[3]), 401, .invalidCredentials)
            // The other codes still work, with hyphens and in lower case.
            #expect(try await h.startEnrollment(recoveryCode: codes[4]).status == .created)
            let devices = try await h.store.devices(userId: enrolled.session.userId).filter(\.isActive)
            #expect(Set(devices.map(\.id)) == [enrolled.deviceId, joined.deviceId])
        }
    }

    @Test func aWrongOrMalformedCodeChangesNothingAndWrongOnesAreThrottled() async throws {
        try await Harness.run { h in
            let phone = try await TestDevice()
            let enrolled = try await h.enroll(phone)
            let codes = try await h.createRecoveryCodes(enrolled.session)
            let wrong = codes[0] == "aaaa-aaaa-aaaa" ? "bbbb-bbbb-bbbb" : "aaaa-aaaa-aaaa"
            // Not shaped like a code: 400, nothing counted.
            for malformed in ["", "abcd-efgh-ijk", "abcd-efgh-ijk1", "abcd-efgh-ijklm", "abcd efgh ijkl", "ab\u{0}d-efgh-ijkl"] {
                let response = try await h.startEnrollment(recoveryCode: malformed)
                try h.expectProblem(response, 400, .invalidRequest)
            }
            // A wrong code with the right password: 401 as for a wrong password; the password's success does not
            // take the attempt back, so repeated wrong codes meet the throttle.
            try h.expectProblem(try await h.startEnrollment(recoveryCode: wrong), 401, .invalidCredentials)
            // Another user's code is wrong here.
            let bobPhone = try await TestDevice(name: "Bob's phone")
            let bob = try await h.enroll(bobPhone, username: "bob")
            let bobCodes = try await h.createRecoveryCodes(bob.session)
            try h.expectProblem(try await h.startEnrollment(recoveryCode: bobCodes[0]), 401, .invalidCredentials)
            var statuses: [Int] = []
            for _ in 0..<10 {
                statuses.append(Int(try await h.startEnrollment(recoveryCode: wrong).status.code))
            }
            #expect(statuses.contains(429), "\(statuses)")
            #expect(statuses.allSatisfy { $0 == 401 || $0 == 429 })
            #expect(try await remaining(h, enrolled.session) == 10)
            #expect(try await h.store.devices(userId: enrolled.session.userId).count == 1)
        }
    }

    @Test func regeneratingInvalidatesEveryEarlierCode() async throws {
        try await Harness.run { h in
            let phone = try await TestDevice()
            let enrolled = try await h.enroll(phone)
            let first = try await h.createRecoveryCodes(enrolled.session)
            // An enrolment started with an earlier code cannot complete with it once codes are made again.
            let started = try await h.startEnrollment(recoveryCode: first[1])
            #expect(started.status == .created)
            let second = try await h.createRecoveryCodes(enrolled.session)
            #expect(Set(first).isDisjoint(with: second))
            let late = try await TestDevice(name: "late")
            try h.expectProblem(
                try await h.completeEnrollment(late, try h.decode(EnrollmentStarted.self, started)), 401,
                .invalidCredentials)
            try h.expectProblem(try await h.startEnrollment(recoveryCode: first[0]), 401, .invalidCredentials)
            #expect(try await remaining(h, enrolled.session) == 10)
            #expect(try await h.store.devices(userId: enrolled.session.userId).count == 1)
            try await h.enrollWithCode(try await TestDevice(name: "new"), code: second[0])
            #expect(try await remaining(h, enrolled.session) == 9)
        }
    }

    @Test func theSameCodeFromTenConcurrentEnrolmentsMakesExactlyOneDevice() async throws {
        try await Harness.run { h in
            let phone = try await TestDevice()
            let enrolled = try await h.enroll(phone)
            let code = try await h.createRecoveryCodes(enrolled.session)[0]
            var attempts: [(TestDevice, EnrollmentStarted)] = []
            for index in 0..<10 {
                let response = try await h.startEnrollment(recoveryCode: code)
                #expect(response.status == .created)
                attempts.append((try await TestDevice(name: "thief \(index)"), try h.decode(EnrollmentStarted.self, response)))
            }
            let statuses = try await withThrowingTaskGroup(of: (Int, String?).self) { group in
                for (device, started) in attempts {
                    group.addTask {
                        let response = try await h.completeEnrollment(device, started)
                        let problem = response.status == .created ? nil : try h.problem(response).code.rawValue
                        return (Int(response.status.code), problem)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0.0 == 201 }.count == 1, "\(statuses)")
            #expect(statuses.filter { $0 == (401, "invalid_credentials") }.count == 9, "\(statuses)")
            #expect(try await h.store.devices(userId: enrolled.session.userId).filter(\.isActive).count == 2)
            #expect(try await remaining(h, enrolled.session) == 9)
            // The nine refused enrolments left no notice: one device_added and one recovery_code_used.
            let notices = try await h.notices(phone, deviceId: enrolled.deviceId)
            #expect(notices.map(\.event).sorted { $0.rawValue < $1.rawValue } == [.deviceAdded, .recoveryCodeUsed])
        }
    }

    @Test func withoutADeviceToApproveACodeIsRequiredOnceTheUserHasCodesOrAPasskey() async throws {
        try await Harness.run { h in
            let phone = try await TestDevice()
            let enrolled = try await h.enroll(phone)
            let codes = try await h.createRecoveryCodes(enrolled.session)
            // The phone is lost: the administrator (or the user) revoked it.
            #expect(try await h.store.revokeDevice(id: enrolled.deviceId, reason: "lost", at: h.now, notices: []))
            try h.expectProblem(try await h.send(
                .post, "/v1/enrollments",
                json: PasswordLoginRequest(clientId: "com.example.demo", username: "ana", password: Harness.password)),
                403, .recoveryCodeRequired)
            // A wrong password still gets the same answer as ever.
            try h.expectProblem(
                try await h.startEnrollment(recoveryCode: nil, password: "wrong password!"), 401, .invalidCredentials)
            let replacement = try await TestDevice(name: "Ana's new phone")
            let joined = try await h.enrollWithCode(replacement, code: codes[9])
            #expect(joined.session.acr == "aal2")

            // A user with a passkey and no device: the same.
            let bobId = try await h.createAccount("bob")
            _ = try await h.store.createPasskey(
                PasskeyRecord(
                    credentialId: "bob-passkey", userId: bobId, name: "Bob's laptop", credential: "{}", signCount: 0,
                    backupEligible: false, backupState: false, aaguid: "00000000-0000-0000-0000-000000000000",
                    attestationFormat: "none", createdAt: h.now),
                firstCredentialOnly: true,
                notice: SecurityNotices.draft(.passkeyAdded, userId: bobId, actingDevice: nil, ip: nil, at: h.now))
            try h.expectProblem(try await h.startEnrollment("bob", recoveryCode: nil), 403, .recoveryCodeRequired)
            #expect(try await h.store.devices(userId: bobId).isEmpty)

            // With no device, no passkey and no code, the password enrols the first device.
            try await h.createAccount("carol")
            #expect(try await h.startEnrollment("carol", recoveryCode: nil).status == .created)
        }
    }

    @Test func withoutTheApprovalPolicyThePasswordSuffices() async throws {
        try await Harness.run { h in
            var policy = AppPolicy(clientId: "com.example.open", publisher: "demo")
            policy.newDeviceApproval = false
            try await h.saveApp(policy)
            let phone = try await TestDevice()
            let enrolled = try await h.enroll(phone, clientId: "com.example.open")
            _ = try await h.createRecoveryCodes(enrolled.session)
            let tablet = try await TestDevice(name: "tablet")
            #expect(
                try await h.completeEnrollment(tablet, try await h.startEnrollment(clientId: "com.example.open"))
                    .status == .created)
        }
    }
}
