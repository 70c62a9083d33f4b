import Foundation
import HTTPTypes
import HummingbirdBcrypt
import HummingbirdTesting
import NIOCore
import Testing
import TouchstoneProtocol
import TouchstoneTestSupport

@testable import TouchstoneDomain
@testable import TouchstoneHTTP
@testable import TouchstoneServer
@testable import TouchstoneStorage

/// The contract's input rules: bodies in UTF-8 only, text in code points under one set of rules, and passwords of
/// which every code point counts.
@Suite struct InputRulesTests {
    /// Encodings Foundation's `JSONDecoder` accepts besides UTF-8.
    enum Encoding: CaseIterable, CustomStringConvertible {
        case utf16LE, utf16BE, utf16LEWithBOM, utf16BEWithBOM, utf32LE, utf32BEWithBOM

        func encode(_ text: String) -> [UInt8] {
            func units16(bigEndian: Bool) -> [UInt8] {
                text.utf16.flatMap { unit in
                    let bytes = [UInt8(truncatingIfNeeded: unit), UInt8(truncatingIfNeeded: unit >> 8)]
                    return bigEndian ? bytes.reversed() : bytes
                }
            }
            func units32(bigEndian: Bool) -> [UInt8] {
                text.unicodeScalars.flatMap { scalar in
                    let bytes = (0..<4).map { UInt8(truncatingIfNeeded: scalar.value >> (8 * $0)) }
                    return bigEndian ? bytes.reversed() : bytes
                }
            }
            switch self {
            case .utf16LE: return units16(bigEndian: false)
            case .utf16BE: return units16(bigEndian: true)
            case .utf16LEWithBOM: return [0xFF, 0xFE] + units16(bigEndian: false)
            case .utf16BEWithBOM: return [0xFE, 0xFF] + units16(bigEndian: true)
            case .utf32LE: return units32(bigEndian: false)
            case .utf32BEWithBOM: return [0x00, 0x00, 0xFE, 0xFF] + units32(bigEndian: true)
            }
        }

        var description: String {
            switch self {
            case .utf16LE: "UTF-16LE"
            case .utf16BE: "UTF-16BE"
            case .utf16LEWithBOM: "UTF-16LE with BOM"
            case .utf16BEWithBOM: "UTF-16BE with BOM"
            case .utf32LE: "UTF-32LE"
            case .utf32BEWithBOM: "UTF-32BE with BOM"
            }
        }
    }

    func post(_ h: Harness, _ path: String, bytes: [UInt8], headers: HTTPFields = [:]) async throws -> TestResponse {
        try await h.client.execute(uri: path, method: .post, headers: headers, body: ByteBuffer(bytes: bytes))
    }

    func passwordLogin(_ h: Harness, _ username: String, _ password: String) async throws -> TestResponse {
        try await h.send(
            .post, "/v1/sessions/password",
            json: PasswordLoginRequest(clientId: "com.example.demo", username: username, password: password))
    }

    func signup(_ h: Harness, _ username: String, password: String = Harness.password) async throws -> TestResponse {
        try await h.send(.post, "/v1/accounts", json: CreateAccountRequest(username: username, password: password))
    }

    // MARK: Bodies

    /// Regression: a UTF-16 body carried the escape `\u0000` past the byte check (503 on PostgreSQL, passwords cut at
    /// the NUL by bcrypt on SQLite).
    @Test func utf16BodiesCannotSmuggleNUL() async throws {
        try await Harness.run { h in
            try await h.createAccount("ana")
            let bodies = [
                ("/v1/accounts", #"{"username":"mallory","password":"correct horse battery\u0000x"}"#),
                ("/v1/sessions/password", #"{"clientId":"com.example.demo","username":"ana","password":"correct horse battery\u0000x"}"#),
                ("/v1/enrollments", #"{"clientId":"com.example.demo","username":"ana","password":"correct horse battery\u0000x"}"#),
                ("/v1/web-logins", #"{"username":"ana\u0000"}"#),
            ]
            for (path, json) in bodies {
                for encoding in Encoding.allCases {
                    let response = try await post(h, path, bytes: encoding.encode(json))
                    #expect(response.status == .badRequest, "\(path) in \(encoding): \(response.status)")
                    #expect(try h.problem(response).code == .invalidRequest, "\(path) in \(encoding)")
                }
            }
            #expect(try await h.store.user(username: "mallory") == nil)
            #expect(try await h.store.users().count == 1)
        }
    }

    /// Any NUL byte makes a body something other than UTF-8 JSON.
    @Test func rawNULByteInUTF8BodyIsRefused() async throws {
        try await Harness.run { h in
            let json = #"{"username":"mallory","password":"correct horse battery"}"#
            for bytes in [
                Array(json.utf8) + [0], [0] + Array(json.utf8),
                Array(#"{"username":"mallory","password":"correct horse"#.utf8) + [0] + Array(#"battery"}"#.utf8),
            ] {
                try h.expectProblem(try await post(h, "/v1/accounts", bytes: bytes), 400, .invalidRequest)
            }
            #expect(try await h.store.users().isEmpty)
        }
    }

    /// RFC 8259 forbids adding a UTF-8 byte order mark; the server refuses one rather than guessing.
    @Test func utf8ByteOrderMarkIsRefused() async throws {
        try await Harness.run { h in
            let json = #"{"username":"mallory","password":"correct horse battery"}"#
            try h.expectProblem(
                try await post(h, "/v1/accounts", bytes: [0xEF, 0xBB, 0xBF] + Array(json.utf8)), 400, .invalidRequest)
            #expect(try await h.store.users().isEmpty)
        }
    }

    // MARK: Passwords

    /// Regression: bcrypt alone ignores what follows the 72nd byte, so 24 × "€" + anything logged in.
    @Test func everyCodePointOfAPasswordCounts() async throws {
        try await Harness.run { h in
            let prefix = String(repeating: "€", count: 24)
            #expect(prefix.utf8.count == 72)
            try await h.createAccount("ana", password: prefix + "a")
            try h.expectProblem(try await passwordLogin(h, "ana", prefix + "b"), 401, .invalidCredentials)
            try h.expectProblem(try await passwordLogin(h, "ana", prefix), 401, .invalidCredentials)
            #expect(try await passwordLogin(h, "ana", prefix + "a").status == .created)
        }
    }

    @Test func newHashesArePrehashedAndTheDecoyToo() async throws {
        try await Harness.run(configure: Harness.productionBcrypt) { h in
            try await h.createAccount("ana")
            let user = try #require(try await h.store.user(username: "ana"))
            #expect(user.passwordHash.hasPrefix(PasswordHasher.prehashedPrefix + "$2b$12$"))
            #expect(h.runtime.environment.hasher.decoy.hasPrefix(PasswordHasher.prehashedPrefix + "$2b$12$"))
            #expect(!user.passwordHash.contains(Harness.password))
        }
    }

    /// Hashes stored before the pre-hashed scheme (plain bcrypt of the password) keep verifying.
    @Test func plainBcryptHashesFromBeforeStillVerify() async throws {
        try await Harness.run { h in
            let legacy = Bcrypt.hash(Harness.password, cost: 12)
            try await h.store.createUser(
                UserRecord(id: RecordID.random(), username: "old", passwordHash: legacy, createdAt: h.now))
            try h.expectProblem(try await passwordLogin(h, "old", "wrong password"), 401, .invalidCredentials)
            #expect(try await passwordLogin(h, "old", Harness.password).status == .created)
        }
    }

    /// Password lengths count code points, not grapheme clusters.
    @Test func passwordLengthsAreCountedInCodePoints() async throws {
        try await Harness.run { h in
            // 513 clusters, 1026 code points: too long.
            try h.expectProblem(
                try await signup(h, "ana", password: String(repeating: "e\u{301}", count: 513)), 400, .weakPassword)
            #expect(try await h.store.users().isEmpty)
            // 4 clusters, 8 code points: long enough.
            let short = String(repeating: "e\u{301}", count: 4)
            #expect(try await signup(h, "ana", password: short).status == .created)
            #expect(try await passwordLogin(h, "ana", short).status == .created)
        }
    }

    // MARK: Names

    /// Regression: invisible, bidirectional and decomposed usernames made look-alike accounts, and lengths counted
    /// grapheme clusters (15,000 combining marks were one character).
    @Test func lookAlikeAndOverlongUsernamesAreRefused() async throws {
        try await Harness.run { h in
            let refused = [
                "ana\u{200B}", "\u{202E}ana", "an\u{2066}a", "a\u{00AD}na", "jos\u{0065}\u{0301}", " ana", "ana ",
                "ana\u{3000}", "ana\u{034F}", "\u{3164}", "ana\u{2028}", String(repeating: "a", count: 65),
                "a" + String(repeating: "\u{0301}", count: 14_999), "",
            ]
            for username in refused {
                let response = try await signup(h, username)
                #expect(response.status == .badRequest, "\(username.unicodeScalars.prefix(8).map(\.value))")
                #expect(try h.problem(response).code == .invalidRequest)
            }
            #expect(try await h.store.users().isEmpty)

            for username in [String(repeating: "é", count: 64), "josé", "Ana Pérez", "ана", "李小龙"] {
                #expect(try await signup(h, username).status == .created, "\(username)")
            }
            #expect(try await h.store.users().count == 5)
        }
    }

    /// Regression: a 30 KB device name of combining marks passed as one character.
    @Test func deviceNamesAndModelsFollowTheNameRules() async throws {
        try await Harness.run { h in
            try await h.createAccount("ana")
            let userId = try #require(try await h.store.user(username: "ana")).id
            var devices: [TestDevice] = []
            for name in [
                String(repeating: "\u{0301}", count: 15_000), String(repeating: "a", count: 65), "Ana's\u{200B} phone",
                "Ana's phone ", "phone\u{2066}", "Ana's phone\u{115F}",
            ] {
                devices.append(try await TestDevice(name: name))
            }
            var badModel = try await TestDevice()
            badModel.description.model = String(repeating: "m", count: 65)
            devices.append(badModel)
            for device in devices {
                let started = try await h.startEnrollment()
                let response = try await h.completeEnrollment(device, started)
                #expect(response.status == .badRequest, "\(device.description.name.prefix(20))")
                #expect(try h.problem(response).code == .invalidRequest)
            }
            #expect(try await h.store.devices(userId: userId).isEmpty)

            let started = try await h.startEnrollment()
            let response = try await h.completeEnrollment(try await TestDevice(name: String(repeating: "é", count: 64)), started)
            #expect(response.status == .created)
        }
    }

    // MARK: Confirmations

    static let payment = ConfirmationRequest(
        username: "ana", text: "Pay €120.00 to ACME Ltd", amount: "120.00", currency: "EUR", payee: "ACME Ltd")

    /// Ana's enrolled phone and a relying service's way to ask her to confirm (`POST /v1/confirmations` with its key).
    static func payments(_ h: Harness) async throws -> (
        device: TestDevice, enrolled: EnrollmentCompleted,
        create: @Sendable (ConfirmationRequest) async throws -> TestResponse
    ) {
        try await h.saveApp(AppPolicy(clientId: "com.example.pay", publisher: "demo"))
        let device = try await TestDevice()
        let enrolled = try await h.enroll(device)
        let key = try await h.newAPIKey(for: "com.example.pay")
        return (device, enrolled, { request in
            try await h.send(.post, "/v1/confirmations", json: request, headers: [.authorization: "ApiKey \(key)"])
        })
    }

    /// Regression: payees and texts of invisible letters (Hangul fillers, U+034F, U+2065) passed the checks.
    @Test func invisiblePayeesAndTextsAreRefused() async throws {
        try await Harness.run { h in
            let (device, enrolled, create) = try await Self.payments(h)
            let payment = Self.payment

            var refused: [ConfirmationRequest] = []
            for invisible in ["\u{3164}", "\u{115F}", "\u{034F}", "\u{2065}", "\u{FFA0}", "\u{1160}"] {
                for value in [invisible, "A" + invisible, invisible + "1"] {
                    var text = payment
                    text.text = value
                    var payee = payment
                    payee.payee = value
                    refused += [text, payee]
                }
            }
            for value in ["—", "…", "💸", "-", " "] {
                var payee = payment
                payee.payee = value
                var text = payment
                text.text = value
                refused += [payee, text]
            }
            for request in refused {
                let response = try await create(request)
                let shown = "\(request.text.unicodeScalars.map(\.value)) / \(request.payee.unicodeScalars.map(\.value))"
                #expect(response.status == .badRequest, "\(shown)")
                #expect(try h.problem(response).code == .invalidRequest)
            }
            #expect(try await h.inboxItems(device, deviceId: enrolled.deviceId).isEmpty)

            var digitsOnly = payment
            digitsOnly.payee = "7-Eleven"
            digitsOnly.text = "Pay 120 €"
            #expect(try await create(digitsOnly).status == .created)
            #expect(try await h.inboxItems(device, deviceId: enrolled.deviceId).count == 1)
        }
    }

    /// Regression (issue 29, finding 7): a payee with U+2800 (braille pattern blank) between its words passed. No space
    /// but U+0020 and no blank-looking symbol, in `text` and `payee`.
    @Test func blankLookingPayeesAndTextsAreRefused() async throws {
        try await Harness.run { h in
            let (device, enrolled, create) = try await Self.payments(h)
            let payment = Self.payment

            var braille = payment
            braille.payee = "ACME\u{2800}Ltd"
            try h.expectProblem(try await create(braille), 400, .invalidRequest)

            var refused: [ConfirmationRequest] = []
            // U+2800, then every space separator (Zs) but U+0020: no-break, ogham, en quad … ideographic.
            let blanks = ["\u{2800}", "\u{00A0}", "\u{1680}", "\u{2000}", "\u{2003}", "\u{2007}", "\u{200A}", "\u{202F}", "\u{205F}", "\u{3000}"]
            for blank in blanks {
                for value in ["ACME\(blank)Ltd", "ACME Ltd\(blank)", "\(blank)1"] {
                    var text = payment
                    text.text = "Pay €120.00 to " + value
                    var payee = payment
                    payee.payee = value
                    refused += [text, payee]
                }
            }
            for request in refused {
                let response = try await create(request)
                let shown = "\(request.text.unicodeScalars.map(\.value)) / \(request.payee.unicodeScalars.map(\.value))"
                #expect(response.status == .badRequest, "\(shown)")
                #expect(try h.problem(response).code == .invalidRequest, "\(shown)")
            }
            #expect(try await h.inboxItems(device, deviceId: enrolled.deviceId).isEmpty, "nothing is stored")

            #expect(try await create(payment).status == .created, "U+0020 is the space a payee may hold")
            #expect(try await h.inboxItems(device, deviceId: enrolled.deviceId).count == 1)
        }
    }
}
