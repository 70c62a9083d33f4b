import Foundation
import HTTPTypes
import HummingbirdTesting
import Logging
import SQLKit
import Testing
import TouchstoneCrypto
import TouchstoneProtocol
import TouchstoneTestSupport

@testable import TouchstoneDomain
@testable import TouchstoneHTTP
@testable import TouchstoneServer
@testable import TouchstoneStorage

/// Decisions on inbox items follow the asking app's policy as logins do, and a PIN that goes with a decision reaches
/// neither the relying service, nor the database, nor the log.
@Suite struct DecisionPolicyTests {
    static let payment = ConfirmationRequest(
        username: "ana", text: "Pay €120.00 to ACME Ltd", amount: "120.00", currency: "EUR", payee: "ACME Ltd")
    static let txn = TransactionHash.of(
        text: payment.text, amount: payment.amount, currency: payment.currency, payee: payment.payee)

    func confirmation(_ h: Harness, key: String, username: String = "ana") async throws -> String {
        var request = Self.payment
        request.username = username
        let response = try await h.send(.post, "/v1/confirmations", json: request, headers: [.authorization: "ApiKey \(key)"])
        #expect(response.status == .created)
        return try h.decode(ConfirmationCreated.self, response).confirmationId
    }

    func confirmationState(_ h: Harness, key: String, _ id: String) async throws -> ConfirmationState {
        let response = try await h.send(.get, "/v1/confirmations/\(id)", headers: [.authorization: "ApiKey \(key)"])
        #expect(response.status == .ok)
        return try h.decode(ConfirmationState.self, response)
    }

    func webLogin(_ h: Harness, username: String = "ana", clientId: String?) async throws -> WebLoginStarted {
        let response = try await h.send(.post, "/v1/web-logins", json: WebLoginRequest(username: username, clientId: clientId))
        #expect(response.status == .created)
        return try h.decode(WebLoginStarted.self, response)
    }

    func poll(_ h: Harness, _ started: WebLoginStarted) async throws -> TestResponse {
        let response = try await h.send(.get, "/v1/web-logins/\(started.webLoginId)", headers: [.pollSecret: started.pollSecret])
        #expect(response.status == .ok)
        return response
    }

    func item(
        _ h: Harness, _ device: TestDevice, _ deviceId: String, _ id: String, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> InboxItem {
        try #require(
            try await h.inboxItems(device, deviceId: deviceId).first { $0.id == id }, sourceLocation: sourceLocation)
    }

    // MARK: D. The asking app's policy

    @Test func aBiometricDecisionForAnAppThatForbidsBiometricsIsRefusedAndThePINIsAccepted() async throws {
        try await Harness.run { h in
            try await h.saveApp(AppPolicy(clientId: "com.example.nobio", publisher: "demo", biometricAllowed: false))
            let device = try await TestDevice()
            let enrolled = try await h.enroll(device)
            let deviceId = enrolled.deviceId

            // A web login for the app.
            let started = try await webLogin(h, clientId: "com.example.nobio")
            let shown = try await item(h, device, deviceId, started.webLoginId)
            let fingerprint = try await device.decision(
                deviceId: deviceId, challenge: shown.challenge, number: started.number, now: h.now)
            try h.expectProblem(try await h.decide("web-logins", started.webLoginId, fingerprint), 403, .biometryNotAllowed)
            let waiting = try h.decode(WebLoginPoll.self, try await poll(h, started))
            #expect(waiting.status == .pending)
            #expect(waiting.session == nil)
            _ = try await item(h, device, deviceId, started.webLoginId)
            let withPIN = try await device.decision(
                deviceId: deviceId, challenge: shown.challenge, number: started.number, pin: Harness.pin, now: h.now)
            let decided = try await h.decide("web-logins", started.webLoginId, withPIN)
            #expect(decided.status == .ok)
            #expect(try h.decode(DecisionRecorded.self, decided).status == .approved)
            let delivered = try h.decode(WebLoginPoll.self, try await poll(h, started))
            #expect(delivered.status == .approved)
            let session = try #require(delivered.session)
            #expect(session.amr == ["pin"])
            #expect(try jwtParts(session.accessToken).payload["amr"] as? [String] == ["pin"])

            // A confirmation asked with the app's API key.
            let key = try await h.newAPIKey(for: "com.example.nobio")
            let id = try await confirmation(h, key: key)
            let asked = try await item(h, device, deviceId, id)
            let biometric = try await device.decision(deviceId: deviceId, challenge: asked.challenge, txn: Self.txn, now: h.now)
            try h.expectProblem(try await h.decide("confirmations", id, biometric), 403, .biometryNotAllowed)
            let pending = try await confirmationState(h, key: key, id)
            #expect(pending.status == .pending)
            #expect(pending.decision == nil)
            _ = try await item(h, device, deviceId, id)
            let pin = try await device.decision(
                deviceId: deviceId, challenge: asked.challenge, txn: Self.txn, pin: Harness.pin, now: h.now)
            let confirmed = try await h.decide("confirmations", id, pin)
            #expect(confirmed.status == .ok)
            #expect(try h.decode(DecisionRecorded.self, confirmed).status == .approved)
            let state = try await confirmationState(h, key: key, id)
            #expect(state.status == .approved)
            #expect(state.amr == ["pin"])
            #expect(try jwtParts(try #require(state.decision)).payload["amr"] as? [String] == ["pin"])
        }
    }

    @Test func aDeviceStoredAsCompromisedCannotDecideForAnAppThatRefusesThem() async throws {
        try await Harness.run { h in
            try await h.saveApp(AppPolicy(clientId: "com.example.lax", publisher: "demo", refuseCompromisedDevices: false))
            let strictKey = try await h.newAPIKey(for: "com.example.demo")
            let laxKey = try await h.newAPIKey(for: "com.example.lax")

            // Compromised at enrolment, into the app that allows it.
            let rooted = try await TestDevice(compromised: true)
            let enrolled = try await h.enroll(rooted, clientId: "com.example.lax")
            #expect(try await h.store.device(id: enrolled.deviceId)?.compromised == true)

            let strict = try await confirmation(h, key: strictKey)
            let asked = try await item(h, rooted, enrolled.deviceId, strict)
            let biometric = try await rooted.decision(
                deviceId: enrolled.deviceId, challenge: asked.challenge, txn: Self.txn, now: h.now)
            try h.expectProblem(try await h.decide("confirmations", strict, biometric), 403, .deviceCompromised)
            let withPIN = try await rooted.decision(
                deviceId: enrolled.deviceId, challenge: asked.challenge, txn: Self.txn, pin: Harness.pin, now: h.now)
            try h.expectProblem(try await h.decide("confirmations", strict, withPIN), 403, .deviceCompromised)
            #expect(try await confirmationState(h, key: strictKey, strict).status == .pending)
            #expect(try await h.store.device(id: enrolled.deviceId)?.pinFailures == 0)

            // A web login for an app that refuses them (the demo app) is refused the same way.
            let started = try await webLogin(h, clientId: nil)
            let shown = try await item(h, rooted, enrolled.deviceId, started.webLoginId)
            let approval = try await rooted.decision(
                deviceId: enrolled.deviceId, challenge: shown.challenge, number: started.number, now: h.now)
            try h.expectProblem(try await h.decide("web-logins", started.webLoginId, approval), 403, .deviceCompromised)
            let polled = try h.decode(WebLoginPoll.self, try await poll(h, started))
            #expect(polled.status == .pending)
            #expect(polled.session == nil)

            // The app that allows them still gets its answer: it is the asking app's policy that refuses.
            let lax = try await confirmation(h, key: laxKey)
            let laxItem = try await item(h, rooted, enrolled.deviceId, lax)
            let allowed = try await rooted.decision(
                deviceId: enrolled.deviceId, challenge: laxItem.challenge, txn: Self.txn, now: h.now)
            #expect(try await h.decide("confirmations", lax, allowed).status == .ok)
            #expect(try await confirmationState(h, key: laxKey, lax).status == .approved)

            // Compromised by a later assertion (accepted by the app that allows it).
            let phone = try await TestDevice()
            let bea = try await h.enroll(phone, username: "bea")
            #expect(try await h.store.device(id: bea.deviceId)?.compromised == false)
            let challenge = try await h.challenge(bea.deviceId)
            let assertion = try await phone.assertion(deviceId: bea.deviceId, challenge: challenge, compromised: true, now: h.now)
            let login = try await h.send(
                .post, "/v1/sessions", json: AssertionLoginRequest(clientId: "com.example.lax", assertion: assertion))
            #expect(login.status == .created)
            #expect(try await h.store.device(id: bea.deviceId)?.compromised == true)
            let asksBea = try await confirmation(h, key: strictKey, username: "bea")
            let beaItem = try await item(h, phone, bea.deviceId, asksBea)
            let beaDecision = try await phone.decision(
                deviceId: bea.deviceId, challenge: beaItem.challenge, txn: Self.txn, now: h.now)
            try h.expectProblem(try await h.decide("confirmations", asksBea, beaDecision), 403, .deviceCompromised)
            #expect(try await confirmationState(h, key: strictKey, asksBea).status == .pending)
        }
    }

    // MARK: E. PINs stay on the device

    static let pin = "736159"

    /// Whether `text` holds the PIN, also inside any base64 or base64url run it contains (a JWS's segments, say). A
    /// match inside a longer run of digits (a timestamp) does not count.
    static func holdsPIN(_ text: String) -> Bool {
        expanded(text).contains(where: mentionsPIN)
    }

    static func mentionsPIN(_ text: String) -> Bool {
        let characters = Array(text)
        let pin = Array(Self.pin)
        guard characters.count >= pin.count else { return false }
        func isDigit(_ index: Int) -> Bool {
            characters.indices.contains(index) && ("0"..."9").contains(characters[index])
        }
        for start in 0...(characters.count - pin.count) where Array(characters[start..<(start + pin.count)]) == pin {
            if !isDigit(start - 1), !isDigit(start + pin.count) { return true }
        }
        return false
    }

    /// `text`, and the text of every base64url or base64 run in it that decodes.
    static func expanded(_ text: String) -> [String] {
        var texts = [text]
        let base64URL = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        let base64 = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=")
        for run in text.split(whereSeparator: { !base64URL.contains($0) }) where run.count >= 8 {
            if let data = Base64URL.decode(String(run)) { texts.append(String(decoding: data, as: UTF8.self)) }
        }
        for run in text.split(whereSeparator: { !base64.contains($0) }) where run.count >= 8 {
            var padded = String(run.filter { $0 != "=" })
            padded += String(repeating: "=", count: (4 - padded.count % 4) % 4)
            if let data = Data(base64Encoded: padded) { texts.append(String(decoding: data, as: UTF8.self)) }
        }
        return texts
    }

    @Test func thePINSearchFindsItInsideTokensButNotInsideTimestamps() throws {
        // The search itself: clear, inside a JWS payload, as a number; not inside a timestamp.
        let payload = Base64URL.encode(Data(#"{"pin":"736159","iat":1779736159}"#.utf8))
        #expect(Self.holdsPIN("eyJhbGciOiJFUzI1NiJ9.\(payload).c2ln"))
        #expect(Self.holdsPIN("736159"))
        #expect(Self.holdsPIN(Data("pin=736159".utf8).base64EncodedString()))
        #expect(!Self.holdsPIN("1779736159"))
        #expect(!Self.holdsPIN("eyJhbGciOiJFUzI1NiJ9.\(Base64URL.encode(Data(#"{"iat":1779736159}"#.utf8))).c2ln"))
    }

    /// Every value of every table of the store, as text, with where it is (`table.column`).
    func everyStoredValue(_ h: Harness) async throws -> [(place: String, text: String)] {
        let store = try #require(h.store as? SQLStore)
        let sqlite = h.database == .sqlite
        return try await store.provider.read { database in
            let tables =
                sqlite
                ? try await database.raw("SELECT name FROM sqlite_master WHERE type = 'table'").all()
                : try await database.raw(
                    "SELECT table_name::text AS name FROM information_schema.tables WHERE table_schema = 'public'"
                ).all()
            var values: [(place: String, text: String)] = []
            for table in try tables.map({ try $0.decode(column: "name", as: String.self) }) {
                for row in try await database.raw("SELECT * FROM \(ident: table)").all() {
                    for column in row.allColumns {
                        let place = "\(table).\(column)"
                        if let text = try? row.decode(column: column, as: String.self) {
                            values.append((place, text))
                        } else if let number = try? row.decode(column: column, as: Int64.self) {
                            values.append((place, String(number)))
                        } else if let data = try? row.decode(column: column, as: Data.self) {
                            values.append((place, String(decoding: data, as: UTF8.self)))
                        }
                    }
                }
            }
            return values
        }
    }

    @Test func relyingServicesNeverReadAPINAndNoTableOrLogLineHoldsIt() async throws {
        let capture = CapturingLogHandler()
        capture.logLevel = .debug
        try await Harness.run(logger: capture.makeLogger()) { h in
            try await h.saveApp(AppPolicy(clientId: "com.example.pay", publisher: "demo"))
            let device = try await TestDevice()
            let enrolled = try await h.enroll(device, pin: Self.pin)
            let deviceId = enrolled.deviceId
            let key = try await h.newAPIKey(for: "com.example.pay")

            // A PIN login.
            let login = try await h.login(device, deviceId: deviceId, pin: Self.pin)
            #expect(login.status == .created)
            #expect(!Self.holdsPIN(String(buffer: login.body)))

            // A confirmation approved with the device key and the PIN.
            let id = try await confirmation(h, key: key)
            let asked = try await item(h, device, deviceId, id)
            // A stale one first (refused, and logged), then the right one.
            let stale = try await device.decision(
                deviceId: deviceId, challenge: asked.challenge, txn: Self.txn, pin: Self.pin, now: h.now - 600)
            try h.expectProblem(try await h.decide("confirmations", id, stale), 401, .invalidAssertion)
            let decision = try await device.decision(
                deviceId: deviceId, challenge: asked.challenge, txn: Self.txn, pin: Self.pin, now: h.now)
            #expect(Self.holdsPIN(decision), "the device's own decision token carries the PIN")
            let decided = try await h.decide("confirmations", id, decision)
            #expect(decided.status == .ok)
            #expect(!Self.holdsPIN(String(buffer: decided.body)))
            // A replay of it is refused.
            try h.expectProblem(try await h.decide("confirmations", id, decision), 401, .challengeInvalid)

            let stateResponse = try await h.send(.get, "/v1/confirmations/\(id)", headers: [.authorization: "ApiKey \(key)"])
            #expect(stateResponse.status == .ok)
            let body = String(buffer: stateResponse.body)
            #expect(!Self.holdsPIN(body), "the relying service reads the PIN")
            let state = try h.decode(ConfirmationState.self, stateResponse)
            #expect(state.status == .approved)
            #expect(state.amr == ["pin"])
            let receipt = try #require(state.decision)
            #expect(receipt != decision)
            #expect(!Self.holdsPIN(receipt))
            let claims = try jwtParts(receipt).payload
            #expect(claims["pin"] == nil)
            #expect(!Self.holdsPIN(String(decoding: try JSONSerialization.data(withJSONObject: claims), as: UTF8.self)))

            // A web login approved with the PIN.
            let started = try await webLogin(h, clientId: nil)
            let shown = try await item(h, device, deviceId, started.webLoginId)
            let approval = try await device.decision(
                deviceId: deviceId, challenge: shown.challenge, number: started.number, pin: Self.pin, now: h.now)
            #expect(try await h.decide("web-logins", started.webLoginId, approval).status == .ok)
            let polled = try await poll(h, started)
            #expect(!Self.holdsPIN(String(buffer: polled.body)))
            #expect(try h.decode(WebLoginPoll.self, polled).session?.amr == ["pin"])

            // Nothing stored holds it, in clear or inside a token.
            let values = try await everyStoredValue(h)
            #expect(values.contains { $0.place == "devices.id" && $0.text == deviceId }, "the dump reads the tables")
            #expect(values.contains { $0.place.hasPrefix("confirmations.") && $0.text == id })
            #expect(Set(values.map { $0.place.split(separator: ".")[0] }).count >= 10)
            let holders = values.filter { Self.holdsPIN($0.text) }.map(\.place)
            #expect(holders.isEmpty, "the PIN is stored in \(holders)")
        }
        let lines = capture.lines
        #expect(!lines.isEmpty)
        let leaks = lines.filter(Self.holdsPIN)
        #expect(leaks.isEmpty, "the PIN reached the log: \(leaks)")
    }
}
