import Crypto
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

/// Transaction confirmation: a relying service's API key asks, the user's device approves what it shows.
@Suite struct ConfirmationTests {
    static let payment = ConfirmationRequest(
        username: "ana", text: "Pay €120.00 to ACME Ltd", amount: "120.00", currency: "EUR", payee: "ACME Ltd")
    static let txn = TransactionHash.of(text: payment.text, amount: payment.amount, currency: payment.currency, payee: payment.payee)

    /// Ana's device, enrolled in the demo app, and an API key of another app of the same publisher.
    struct Scene {
        let device: TestDevice
        let deviceId: String
        let key: String
    }

    func makeScene(_ h: Harness) async throws -> Scene {
        try await h.saveApp(AppPolicy(clientId: "com.example.pay", publisher: "demo"))
        let device = try await TestDevice()
        let enrolled = try await h.enroll(device)
        return Scene(device: device, deviceId: enrolled.deviceId, key: try await h.newAPIKey(for: "com.example.pay"))
    }

    func create(_ h: Harness, key: String?, _ request: ConfirmationRequest = payment) async throws -> TestResponse {
        try await h.send(.post, "/v1/confirmations", json: request, headers: key.map { [.authorization: "ApiKey \($0)"] } ?? [:])
    }

    /// Creates a confirmation, expecting 201, and returns its id.
    func created(_ h: Harness, key: String, _ request: ConfirmationRequest = payment) async throws -> String {
        let response = try await create(h, key: key, request)
        #expect(response.status == .created)
        return try h.decode(ConfirmationCreated.self, response).confirmationId
    }

    func state(_ h: Harness, key: String?, _ id: String) async throws -> TestResponse {
        try await h.send(.get, "/v1/confirmations/\(id)", headers: key.map { [.authorization: "ApiKey \($0)"] } ?? [:])
    }

    func status(_ h: Harness, key: String, _ id: String) async throws -> ConfirmationState {
        let response = try await state(h, key: key, id)
        #expect(response.status == .ok)
        return try h.decode(ConfirmationState.self, response)
    }

    /// The claims of a confirmation's `decision`: a `touchstone-confirmation+jwt` whose ES256 signature verifies with
    /// a key of the server's JWKS, as a relying service checks it.
    func receipt(_ h: Harness, _ state: ConfirmationState) async throws -> [String: Any] {
        let token = try #require(state.decision)
        let (header, payload) = try jwtParts(token)
        #expect(header["typ"] as? String == "touchstone-confirmation+jwt")
        #expect(header["alg"] as? String == "ES256")
        let jwks = try h.jsonObject(try await h.send(.get, "/.well-known/jwks.json"))
        let keys = try #require(jwks["keys"] as? [[String: Any]])
        let jwk = try #require(keys.first { $0["kid"] as? String == header["kid"] as? String })
        let point = try #require(Base64URL.decode(jwk["x"] as? String ?? "")) + (try #require(Base64URL.decode(jwk["y"] as? String ?? "")))
        let key = try P256.Signing.PublicKey(rawRepresentation: point)
        let parts = token.split(separator: ".").map(String.init)
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: try #require(Base64URL.decode(parts[2])))
        #expect(key.isValidSignature(signature, for: Data((parts[0] + "." + parts[1]).utf8)))
        #expect(payload["pin"] == nil)
        #expect(payload["iss"] as? String == Harness.issuer)
        #expect(payload["cid"] as? String == state.confirmationId)
        #expect(payload["txn"] as? String == state.txn)
        #expect(payload["did"] as? String == state.deviceId)
        #expect(payload["amr"] as? [String] == state.amr?.map(\.rawValue))
        return payload
    }

    /// The device's inbox item of this confirmation.
    func shown(_ h: Harness, _ scene: Scene, _ id: String) async throws -> InboxItem {
        try #require(try await h.inboxItems(scene.device, deviceId: scene.deviceId).first { $0.id == id })
    }

    @Test func aConfirmationIsPendingAndShownExactlyOnTheDevice() async throws {
        try await Harness.run { h in
            let scene = try await makeScene(h)
            let response = try await create(h, key: scene.key)
            #expect(response.status == .created)
            #expect(response.headers[.cacheControl] == "no-store")
            #expect(Set(try h.jsonObject(response).keys) == ["confirmationId", "status", "expiresAt"])
            let created = try h.decode(ConfirmationCreated.self, response)
            #expect(created.status == .pending)
            #expect(abs(created.expiresAt.timeIntervalSince(h.now) - 300) < 1)

            let inbox = try await h.deviceInbox(scene.device, deviceId: scene.deviceId)
            let raw = try #require(try h.jsonObject(inbox)["items"] as? [[String: Any]])
            #expect(raw.count == 1)
            #expect(
                Set(raw.first?.keys.map { $0 } ?? [])
                    == ["kind", "id", "clientId", "publisher", "challenge", "expiresAt", "text", "amount", "currency", "payee"])
            let item = try #require(try h.decode(Inbox.self, inbox).items.first)
            #expect(item.kind == .confirmation)
            #expect(item.id == created.confirmationId)
            #expect(item.text == "Pay €120.00 to ACME Ltd")
            #expect(item.amount == "120.00")
            #expect(item.currency == "EUR")
            #expect(item.payee == "ACME Ltd")
            #expect(item.clientId == "com.example.pay")
            #expect(item.publisher == "demo")
            #expect(Base64URL.decode(item.challenge)?.count == 32)
            #expect(abs(item.expiresAt.timeIntervalSince(created.expiresAt)) < 1)

            let stateResponse = try await state(h, key: scene.key, created.confirmationId)
            #expect(Set(try h.jsonObject(stateResponse).keys) == ["confirmationId", "status", "decidedAt", "deviceId", "amr", "txn", "decision"])
            let state = try h.decode(ConfirmationState.self, stateResponse)
            #expect(state == ConfirmationState(
                confirmationId: created.confirmationId, status: .pending, decidedAt: nil, deviceId: nil, amr: nil,
                txn: Self.txn, decision: nil))
        }
    }

    @Test func expiresInSecondsIsThirtyToSixHundred() async throws {
        try await Harness.run { h in
            let scene = try await makeScene(h)
            for seconds in [30, 600] {
                var request = Self.payment
                request.expiresInSeconds = seconds
                let response = try await create(h, key: scene.key, request)
                #expect(response.status == .created)
                #expect(abs(try h.decode(ConfirmationCreated.self, response).expiresAt.timeIntervalSince(h.now) - Double(seconds)) < 1)
            }
            for seconds in [29, 601, 0, -1] {
                var request = Self.payment
                request.expiresInSeconds = seconds
                try h.expectProblem(try await create(h, key: scene.key, request), 400, .invalidRequest)
            }
            #expect(try await h.inboxItems(scene.device, deviceId: scene.deviceId).count == 2)
        }
    }

    @Test func whatIsShownMustBeUnambiguous() async throws {
        try await Harness.run { h in
            let scene = try await makeScene(h)
            var refused: [ConfirmationRequest] = []
            func with(_ change: (inout ConfirmationRequest) -> Void) -> ConfirmationRequest {
                var request = Self.payment
                change(&request)
                return request
            }
            for text in [
                String(repeating: "x", count: 201), "", "bell\u{0007}", "zero\u{200B}width", "line\u{2028}separator",
                "paragraph\u{2029}separator", "new\nline", "tab\there", "\u{202E}reversed", "\u{FEFF}bom", "soft\u{00AD}hyphen",
            ] {
                refused.append(with { $0.text = text })
            }
            for payee in [String(repeating: "p", count: 101), "", "ACME\u{200B}", "ACME\u{2028}Ltd", "ACME\nLtd", "ACME\u{0000}"] {
                refused.append(with { $0.payee = payee })
            }
            for amount in ["01", "1.", "1.23456", "-1", "1e3", " 1", "1 ", "", ".5", "1,00", "+1", "1.2.3", "00", "１", "0x10"] {
                refused.append(with { $0.amount = amount })
            }
            for currency in ["eur", "EU", "EURO", "", "EÜR", "E1R", " EUR"] {
                refused.append(with { $0.currency = currency })
            }
            for request in refused {
                let response = try await create(h, key: scene.key, request)
                #expect(response.status == .badRequest, "\(request)")
                #expect(try h.problem(response).code == .invalidRequest, "\(request)")
            }
            try h.expectProblem(
                try await h.send(.post, "/v1/confirmations", raw: #"{"username":"ana","text":"Pay","amount":12,"currency":"EUR","payee":"ACME"}"#,
                    headers: [.authorization: "ApiKey \(scene.key)"]),
                400, .invalidRequest)
            #expect(try await h.inboxItems(scene.device, deviceId: scene.deviceId).isEmpty)

            let accepted = [
                with { $0.text = String(repeating: "x", count: 200) }, with { $0.payee = String(repeating: "p", count: 100) },
                with { $0.amount = "0" }, with { $0.amount = "0.5" }, with { $0.amount = "1.2345" },
                with { $0.amount = "123456789012345678901234567890" }, with { $0.currency = "JPY" },
                with { $0.text = "Überweisung 120 € an Café Ñandú 😀" }, with { $0.text = "é" },
            ]
            var expected: [String: ConfirmationRequest] = [:]
            for request in accepted {
                expected[try await created(h, key: scene.key, request)] = request
            }
            let shown = try await h.inboxItems(scene.device, deviceId: scene.deviceId)
            #expect(Set(shown.map(\.id)) == Set(expected.keys))
            for item in shown {
                let request = try #require(expected[item.id])
                #expect(item.text == request.text)
                #expect(item.amount == request.amount)
                #expect(item.currency == request.currency)
                #expect(item.payee == request.payee)
            }
        }
    }

    /// Regression: Swift's `==` on strings is canonical equivalence, so NFC must be compared scalar by scalar.
    @Test func textNotInNFCIsRefused() async throws {
        try await Harness.run { h in
            let scene = try await makeScene(h)
            var text = Self.payment
            text.text = "Caf" + "e\u{0301}"
            try h.expectProblem(try await create(h, key: scene.key, text), 400, .invalidRequest)
            var payee = Self.payment
            payee.payee = "Cafe\u{0301} Ltd"
            try h.expectProblem(try await create(h, key: scene.key, payee), 400, .invalidRequest)
            #expect(try await h.inboxItems(scene.device, deviceId: scene.deviceId).isEmpty)
        }
    }

    @Test func approvedWithTheFingerprint() async throws {
        try await Harness.run { h in
            let scene = try await makeScene(h)
            let id = try await created(h, key: scene.key)
            let item = try await shown(h, scene, id)
            let txn = TransactionHash.of(
                text: try #require(item.text), amount: try #require(item.amount), currency: try #require(item.currency),
                payee: try #require(item.payee))
            #expect(txn == Self.txn)
            let decision = try await scene.device.decision(deviceId: scene.deviceId, challenge: item.challenge, txn: txn, now: h.now)
            let decided = try await h.decide("confirmations", id, decision)
            #expect(decided.status == .ok)
            #expect(String(buffer: decided.body) == #"{"status":"approved"}"#)
            let state = try await status(h, key: scene.key, id)
            #expect(state.status == .approved)
            #expect(state.txn == Self.txn)
            #expect(state.deviceId == scene.deviceId)
            #expect(state.amr == ["bio"])
            #expect(state.decidedAt == Date(timeIntervalSince1970: h.now.timeIntervalSince1970.rounded(.down)))
            // The evidence is the server's receipt: it commits to the transaction and is not the device's token.
            #expect(state.decision != decision)
            let evidence = try await receipt(h, state)
            #expect(evidence["txn"] as? String == Self.txn)
            #expect(evidence["decision"] as? String == "approve")
            #expect(evidence["aud"] as? String == "com.example.pay")
            #expect(evidence["sub"] as? String == (try await h.store.device(id: scene.deviceId))?.userId)
            #expect(evidence["iat"] as? Int == Int(h.now.timeIntervalSince1970))
            #expect(try await h.inboxItems(scene.device, deviceId: scene.deviceId).isEmpty)
        }
    }

    @Test func approvedWithThePINWhichCountsLikeALogin() async throws {
        try await Harness.run { h in
            let scene = try await makeScene(h)
            let id = try await created(h, key: scene.key)
            let item = try await shown(h, scene, id)
            let wrong = try await scene.device.decision(deviceId: scene.deviceId, challenge: item.challenge, txn: Self.txn, pin: "975310", now: h.now)
            let refused = try h.expectProblem(try await h.decide("confirmations", id, wrong), 401, .pinIncorrect)
            #expect(refused.attemptsRemaining == 4)
            #expect(try await h.store.device(id: scene.deviceId)?.pinFailures == 1)
            #expect(try await status(h, key: scene.key, id).status == .pending)
            // The next wrong PIN at login continues the same count.
            #expect(try h.problem(try await h.login(scene.device, deviceId: scene.deviceId, pin: "975310")).attemptsRemaining == 3)

            let right = try await scene.device.decision(deviceId: scene.deviceId, challenge: item.challenge, txn: Self.txn, pin: Harness.pin, now: h.now)
            #expect(try await h.decide("confirmations", id, right).status == .ok)
            let state = try await status(h, key: scene.key, id)
            #expect(state.status == .approved)
            #expect(state.amr == ["pin"])
            #expect(try await receipt(h, state)["decision"] as? String == "approve")
            #expect(try await h.store.device(id: scene.deviceId)?.pinFailures == 0)
        }
    }

    @Test func aDenialIsRecorded() async throws {
        try await Harness.run { h in
            let scene = try await makeScene(h)
            let id = try await created(h, key: scene.key)
            let item = try await shown(h, scene, id)
            let deny = try await scene.device.decision(deviceId: scene.deviceId, challenge: item.challenge, approve: false, txn: Self.txn, now: h.now)
            let decided = try await h.decide("confirmations", id, deny)
            #expect(try h.decode(DecisionRecorded.self, decided).status == .denied)
            let state = try await status(h, key: scene.key, id)
            #expect(state.status == .denied)
            #expect(try await receipt(h, state)["decision"] as? String == "deny")
            #expect(state.deviceId == scene.deviceId)
        }
    }

    @Test func aDecisionForAnotherTransactionIsRefused() async throws {
        try await Harness.run { h in
            let scene = try await makeScene(h)
            let id = try await created(h, key: scene.key)
            let item = try await shown(h, scene, id)
            let p = Self.payment
            for txn in [
                TransactionHash.of(text: p.text, amount: "1200.00", currency: p.currency, payee: p.payee),
                TransactionHash.of(text: p.text, amount: p.amount, currency: "USD", payee: p.payee),
                TransactionHash.of(text: p.text, amount: p.amount, currency: p.currency, payee: "EVIL Ltd"),
                TransactionHash.of(text: "Pay €1200.00 to ACME Ltd", amount: p.amount, currency: p.currency, payee: p.payee),
            ] {
                let other = try await scene.device.decision(deviceId: scene.deviceId, challenge: item.challenge, txn: txn, now: h.now)
                try h.expectProblem(try await h.decide("confirmations", id, other), 400, .txnMismatch)
            }
            let none = try await scene.device.decision(deviceId: scene.deviceId, challenge: item.challenge, now: h.now)
            try h.expectProblem(try await h.decide("confirmations", id, none), 400, .txnMismatch)
            // A mismatched PIN decision is refused before the PIN is counted.
            let withPIN = try await scene.device.decision(deviceId: scene.deviceId, challenge: item.challenge, txn: "eA", pin: "975310", now: h.now)
            try h.expectProblem(try await h.decide("confirmations", id, withPIN), 400, .txnMismatch)
            #expect(try await h.store.device(id: scene.deviceId)?.pinFailures == 0)
            #expect(try await status(h, key: scene.key, id).status == .pending)
            #expect(try await h.inboxItems(scene.device, deviceId: scene.deviceId).map(\.id) == [id])
            // The same challenge with the right transaction, in a new token, succeeds.
            let right = try await scene.device.decision(deviceId: scene.deviceId, challenge: item.challenge, txn: Self.txn, now: h.now)
            #expect(try await h.decide("confirmations", id, right).status == .ok)
            #expect(try await status(h, key: scene.key, id).status == .approved)
        }
    }

    @Test func decisionsAreFinalAndTokensSingleUse() async throws {
        try await Harness.run { h in
            let scene = try await makeScene(h)
            let id = try await created(h, key: scene.key)
            let item = try await shown(h, scene, id)
            let approve = try await scene.device.decision(deviceId: scene.deviceId, challenge: item.challenge, txn: Self.txn, now: h.now)
            #expect(try await h.decide("confirmations", id, approve).status == .ok)
            try h.expectProblem(try await h.decide("confirmations", id, approve), 401, .challengeInvalid)
            let deny = try await scene.device.decision(deviceId: scene.deviceId, challenge: item.challenge, approve: false, txn: Self.txn, now: h.now)
            try h.expectProblem(try await h.decide("confirmations", id, deny), 409, .alreadyDecided)
            let state = try await status(h, key: scene.key, id)
            #expect(state.status == .approved)
            #expect(try await receipt(h, state)["decision"] as? String == "approve")

            // A refused token cannot be replayed either.
            let second = try await created(h, key: scene.key)
            let secondItem = try await shown(h, scene, second)
            let mismatched = try await scene.device.decision(deviceId: scene.deviceId, challenge: secondItem.challenge, txn: "eA", now: h.now)
            try h.expectProblem(try await h.decide("confirmations", second, mismatched), 400, .txnMismatch)
            try h.expectProblem(try await h.decide("confirmations", second, mismatched), 401, .challengeInvalid)
            try h.expectProblem(try await h.decide("confirmations", second, "garbage"), 401, .invalidAssertion)
            try h.expectProblem(try await h.decide("confirmations", "unknown", approve), 404, .notFound)
        }
    }

    @Test func concurrentDecisionsRecordOne() async throws {
        try await Harness.run { h in
            let scene = try await makeScene(h)
            let id = try await created(h, key: scene.key)
            let item = try await shown(h, scene, id)
            var tokens: [String] = []
            // Distinct claims (iat), so that no token is a replay of another.
            for index in 0..<8 {
                tokens.append(
                    try await scene.device.decision(
                        deviceId: scene.deviceId, challenge: item.challenge, approve: index.isMultiple(of: 2), txn: Self.txn,
                        now: h.now - TimeInterval(index)))
            }
            let answers = try await withThrowingTaskGroup(of: (Int, String?).self) { group in
                for token in tokens {
                    group.addTask {
                        let response = try await h.decide("confirmations", id, token)
                        return (Int(response.status.code), response.status == .ok ? token : nil)
                    }
                }
                return try await group.reduce(into: [(Int, String?)]()) { $0.append($1) }
            }
            #expect(answers.filter { $0.0 == 200 }.count == 1)
            #expect(answers.filter { $0.0 == 409 }.count == 7, "\(answers.map(\.0))")
            let winner = try #require(answers.compactMap(\.1).first)
            let state = try await status(h, key: scene.key, id)
            let approved = tokens.firstIndex(of: winner)!.isMultiple(of: 2)
            #expect(try await receipt(h, state)["decision"] as? String == (approved ? "approve" : "deny"))
            #expect(state.status == (approved ? .approved : .denied))
        }
    }

    @Test func decisionTokensFollowTheDeviceTokenRules() async throws {
        try await Harness.run { h in
            let scene = try await makeScene(h)
            let id = try await created(h, key: scene.key)
            let item = try await shown(h, scene, id)
            let iat = TestDevice.seconds(h.now)
            let claims = DecisionClaims(
                iss: scene.deviceId, aud: Harness.issuer, iat: iat, exp: iat + 60, nonce: item.challenge, decision: "approve",
                txn: Self.txn)
            let biometricKey = try #require(scene.device.biometricKey)
            var refused: [(String, String)] = []
            var withPIN = claims
            withPIN.pin = Harness.pin
            refused.append(("biometric key with a PIN", try await biometricKey.sign(withPIN)))
            refused.append(("device key without a PIN", try await scene.device.deviceKey.sign(claims)))
            var maybe = claims
            maybe.decision = "maybe"
            refused.append(("neither approve nor deny", try await biometricKey.sign(maybe)))
            var long = claims
            long.exp = iat + 121
            refused.append(("lives too long", try await biometricKey.sign(long)))
            var audience = claims
            audience.aud = "https://evil.example"
            refused.append(("another audience", try await biometricKey.sign(audience)))
            var past = claims
            (past.iat, past.exp) = (iat - 120, iat - 60)
            refused.append(("expired", try await biometricKey.sign(past)))
            // A login assertion over the item's challenge is not a decision.
            refused.append(
                ("login assertion", try await scene.device.assertion(deviceId: scene.deviceId, challenge: item.challenge, now: h.now)))
            for (reason, token) in refused {
                let response = try await h.decide("confirmations", id, token)
                #expect(response.status == .unauthorized, "\(reason)")
                #expect(try h.problem(response).code == .invalidAssertion, "\(reason)")
            }
            #expect(try await h.store.device(id: scene.deviceId)?.pinFailures == 0)
            #expect(try await status(h, key: scene.key, id).status == .pending)
            #expect(try await h.decide("confirmations", id, try await biometricKey.sign(claims)).status == .ok)
        }
    }

    @Test func anExpiredConfirmationCannotBeDecided() async throws {
        try await Harness.run { h in
            let scene = try await makeScene(h)
            var request = Self.payment
            request.expiresInSeconds = 30
            let id = try await created(h, key: scene.key, request)
            let item = try await shown(h, scene, id)
            h.clock.advance(by: 31)
            #expect(try await h.inboxItems(scene.device, deviceId: scene.deviceId).isEmpty)
            let late = try await scene.device.decision(deviceId: scene.deviceId, challenge: item.challenge, txn: Self.txn, now: h.now)
            try h.expectProblem(try await h.decide("confirmations", id, late), 410, .expired)
            #expect(try await status(h, key: scene.key, id).status == .expired)
        }
    }

    @Test func onlyTheUsersDevicesCanDecide() async throws {
        try await Harness.run { h in
            let scene = try await makeScene(h)
            let bobDevice = try await TestDevice(name: "Bob's phone")
            let bob = try await h.enroll(bobDevice, username: "bob")
            let id = try await created(h, key: scene.key)
            let item = try await shown(h, scene, id)
            #expect(try await h.inboxItems(bobDevice, deviceId: bob.deviceId).isEmpty)
            let bobs = try await bobDevice.decision(deviceId: bob.deviceId, challenge: item.challenge, txn: Self.txn, now: h.now)
            try h.expectProblem(try await h.decide("confirmations", id, bobs), 401, .challengeInvalid)
            let forged = try await bobDevice.decision(deviceId: scene.deviceId, challenge: item.challenge, txn: Self.txn, now: h.now)
            try h.expectProblem(try await h.decide("confirmations", id, forged), 401, .invalidAssertion)
            #expect(try await status(h, key: scene.key, id).status == .pending)
        }
    }

    @Test func anotherPublishersKeyReachesNothingHere() async throws {
        try await Harness.run { h in
            let scene = try await makeScene(h)
            try await h.saveApp(AppPolicy(clientId: "com.other.bank", publisher: "other"))
            let otherKey = try await h.newAPIKey(for: "com.other.bank")
            let ours = try await created(h, key: scene.key)
            try h.expectProblem(try await state(h, key: otherKey, ours), 404, .notFound)

            let theirs = try await created(h, key: otherKey)
            #expect(try await status(h, key: otherKey, theirs).status == .pending)
            try h.expectProblem(try await state(h, key: scene.key, theirs), 404, .notFound)
            #expect(try await h.inboxItems(scene.device, deviceId: scene.deviceId).map(\.id) == [ours])
            // Even knowing the challenge, Ana's device (enrolled under "demo") cannot decide it.
            let challenge = try #require(try await h.store.confirmation(id: theirs)?.challenge)
            let decision = try await scene.device.decision(deviceId: scene.deviceId, challenge: challenge, txn: Self.txn, now: h.now)
            try h.expectProblem(try await h.decide("confirmations", theirs, decision), 401, .challengeInvalid)
            #expect(try await status(h, key: otherKey, theirs).status == .pending)
            try h.expectProblem(try await state(h, key: scene.key, "unknown"), 404, .notFound)
        }
    }

    @Test func anUnknownUserGetsTheSameAnswerAndNothingIsDelivered() async throws {
        try await Harness.run { h in
            let scene = try await makeScene(h)
            var request = Self.payment
            request.username = "nobody"
            let response = try await create(h, key: scene.key, request)
            #expect(response.status == .created)
            #expect(Set(try h.jsonObject(response).keys) == ["confirmationId", "status", "expiresAt"])
            let created = try h.decode(ConfirmationCreated.self, response)
            #expect(created.status == .pending)
            #expect(abs(created.expiresAt.timeIntervalSince(h.now) - 300) < 1)
            #expect(try await h.inboxItems(scene.device, deviceId: scene.deviceId).isEmpty)
            #expect(try await status(h, key: scene.key, created.confirmationId).status == .pending)
            h.clock.advance(by: 301)
            #expect(try await status(h, key: scene.key, created.confirmationId).status == .expired)
        }
    }

    @Test func theRelyingServiceNeedsAValidAPIKey() async throws {
        try await Harness.run { h in
            let scene = try await makeScene(h)
            let id = try await created(h, key: scene.key)
            try h.expectProblem(try await create(h, key: nil), 401, .unauthorized)
            try h.expectProblem(try await create(h, key: "tsk_wrong"), 401, .unauthorized)
            try h.expectProblem(try await state(h, key: nil, id), 401, .unauthorized)
            try h.expectProblem(try await state(h, key: "tsk_wrong", id), 401, .unauthorized)
            let session = try h.decode(Session.self, try await h.login(scene.device, deviceId: scene.deviceId))
            try h.expectProblem(
                try await h.send(.post, "/v1/confirmations", json: Self.payment, headers: h.bearer(session)), 401, .unauthorized)
            let keyId = try #require(try await h.store.apiKeys().first?.id)
            #expect(try await h.store.revokeAPIKey(id: keyId, at: h.now))
            try h.expectProblem(try await create(h, key: scene.key), 401, .unauthorized)
            try h.expectProblem(try await state(h, key: scene.key, id), 401, .unauthorized)
            #expect(try await h.inboxItems(scene.device, deviceId: scene.deviceId).map(\.id) == [id])
        }
    }
}
