import Foundation
import Testing
import TouchstoneCrypto
import TouchstoneProtocol
import TouchstoneTestSupport

/// The flows beyond login through `touchstone device`: confirmations, web logins, new-device approval, step-up.
@Suite struct DeviceInboxTests {
    /// Three parties over loopback: a relying service with an API key, the device CLI, the relying service again.
    @Test func aConfirmationRunsAsThreeParties() async throws {
        try await DeviceCLI.withServer { server, client in
            try await DeviceCLI.createAccount("ana", on: client)
            let phone = try DeviceCLI.Profile(server)
            let status = try await phone.register("ana")
            let created = try await server.admin(["api-key", "create", "com.example.demo"])
            let key = try #require(created.stdoutLines.last).trimmingCharacters(in: .whitespaces)
            let authorization = ["Authorization": "ApiKey \(key)"]

            // 1. The relying service asks.
            let request = ConfirmationRequest(
                username: "ana", text: "Pay ACME Ltd for invoice 42", amount: "120.00", currency: "EUR", payee: "ACME Ltd")
            let asked = try await client.post("/v1/confirmations", request, headers: authorization)
            #expect(asked.status == 201, "\(asked)")
            let confirmationId = try asked.decode(ConfirmationCreated.self).confirmationId

            // 2. The device shows exactly what is asked, and approves it with a fingerprint.
            let inbox = try await phone.run(["inbox", "--json"])
            let items = try inbox.json(Inbox.self).items
            let item = try #require(items.first)
            #expect(items.count == 1)
            #expect(item.kind == .confirmation && item.id == confirmationId)
            #expect([item.text, item.amount, item.currency, item.payee] == [request.text, "120.00", "EUR", "ACME Ltd"])
            #expect(item.clientId == "com.example.demo" && item.publisher == "demo")
            let human = try await phone.run(["inbox"])
            #expect(human.stdout.contains("\"Pay ACME Ltd for invoice 42\" 120.00 EUR to ACME Ltd"), "\(human)")
            let approved = try await phone.run(["approve", confirmationId, "--verifier", "match", "--json"])
            #expect(approved.status == 0, "\(approved)")
            #expect(try approved.json(DecisionRecorded.self).status == .approved)

            // 3. The relying service reads the outcome and its evidence.
            let read = try await client.get("/v1/confirmations/\(confirmationId)", headers: authorization)
            let state = try read.decode(ConfirmationState.self)
            #expect(state.status == .approved)
            #expect(state.deviceId == status.deviceId)
            #expect(state.amr == ["bio"])
            #expect(state.txn == TransactionHash.of(text: request.text, amount: "120.00", currency: "EUR", payee: "ACME Ltd"))
            // The evidence is the server's receipt, not the device's token.
            let decision = try #require(state.decision)
            let parts = decision.split(separator: ".").map(String.init)
            let header = try #require(Base64URL.decode(parts[0]))
            let payload = try #require(Base64URL.decode(parts[1]))
            #expect(try JSONSerialization.jsonObject(with: header) as? [String: String] != nil)
            #expect(String(decoding: header, as: UTF8.self).contains(#""typ":"touchstone-confirmation+jwt""#))
            let claims = try #require(try JSONSerialization.jsonObject(with: payload) as? [String: Any])
            #expect(claims["txn"] as? String == state.txn)
            #expect(claims["decision"] as? String == "approve")
            #expect(claims["cid"] as? String == confirmationId)
            // Nothing is left to decide.
            #expect(try await phone.run(["inbox", "--json"]).json(Inbox.self).items.isEmpty)
        }
    }

    @Test func aDeniedConfirmationAndAPINApproval() async throws {
        try await DeviceCLI.withServer { server, client in
            try await DeviceCLI.createAccount("ana", on: client)
            let phone = try DeviceCLI.Profile(server)
            try await phone.register("ana")
            let key = try #require(try await server.admin(["api-key", "create", "com.example.demo"]).stdoutLines.last)
            let authorization = ["Authorization": "ApiKey \(key)"]
            var ids: [String] = []
            for amount in ["10.00", "20.00"] {
                let asked = try await client.post(
                    "/v1/confirmations",
                    ConfirmationRequest(username: "ana", text: "Top up", amount: amount, currency: "EUR", payee: "Wallet"),
                    headers: authorization)
                ids.append(try asked.decode(ConfirmationCreated.self).confirmationId)
            }
            let denied = try await phone.run(["deny", ids[0], "--verifier", "match"])
            #expect(denied.status == 0 && denied.stdout.contains("denied"), "\(denied)")
            let withPIN = try await phone.run(["approve", ids[1], "--pin", DeviceCLI.pin])
            #expect(withPIN.status == 0 && withPIN.stdout.contains("approved"), "\(withPIN)")
            let first = try await client.get("/v1/confirmations/\(ids[0])", headers: authorization)
            let second = try await client.get("/v1/confirmations/\(ids[1])", headers: authorization)
            #expect(try first.decode(ConfirmationState.self).status == .denied)
            #expect(try second.decode(ConfirmationState.self).amr == ["pin"])
            let gone = try await phone.run(["approve", ids[0], "--verifier", "match"])
            #expect(gone.status != 0 && gone.stderrLines.count == 1, "\(gone)")
        }
    }

    @Test func aWebLoginIsApprovedByPickingTheBrowsersNumber() async throws {
        try await DeviceCLI.withServer { server, client in
            try await DeviceCLI.createAccount("ana", on: client)
            let phone = try DeviceCLI.Profile(server)
            try await phone.register("ana")
            let started = try await client.post("/v1/web-logins", WebLoginRequest(username: "ana")).decode(WebLoginStarted.self)
            let item = try #require(try await phone.run(["inbox", "--json"]).json(Inbox.self).items.first)
            #expect(item.kind == .webLogin && item.numbers?.contains(started.number) == true)
            let approved = try await phone.run(["approve", started.webLoginId, "--verifier", "match", "--number", String(started.number)])
            #expect(approved.status == 0 && approved.stdout.contains("approved"), "\(approved)")
            let poll = try await client.get("/v1/web-logins/\(started.webLoginId)", headers: ["X-Poll-Secret": started.pollSecret])
            let outcome = try poll.decode(WebLoginPoll.self)
            #expect(outcome.status == .approved)
            #expect(outcome.session?.acr == "aal2")

            // A wrong number denies the next one.
            let next = try await client.post("/v1/web-logins", WebLoginRequest(username: "ana")).decode(WebLoginStarted.self)
            let nextItem = try #require(try await phone.run(["inbox", "--json"]).json(Inbox.self).items.first)
            let wrong = try #require(nextItem.numbers?.first { $0 != next.number })
            let refused = try await phone.run(["approve", next.webLoginId, "--verifier", "match", "--number", String(wrong)])
            #expect(refused.stdout.contains("denied"), "\(refused)")
            let denied = try await client.get("/v1/web-logins/\(next.webLoginId)", headers: ["X-Poll-Secret": next.pollSecret])
            #expect(try denied.decode(WebLoginPoll.self).status == .denied)
        }
    }

    @Test func aSecondDeviceShowsANumberTheFirstPicksToApproveItAndADeniedOneGetsNothing() async throws {
        try await DeviceCLI.withServer { server, client in
            try await DeviceCLI.createAccount("ana", on: client)
            let phone = try DeviceCLI.Profile(server)
            try await phone.register("ana")

            for approve in [true, false] {
                let name = approve ? "tablet" : "stranger"
                // The new device registers (and waits) in its own process, with its own profile, showing a number.
                let tablet = try DeviceCLI.Profile(server)
                let registering = try tablet.start(
                    ["--device-name", name, "register", "--username", "ana", "--password-stdin", "--pin", DeviceCLI.pin,
                     "--verifier", "match"],
                    input: DeviceCLI.password + "\n")
                let shown = try await registering.stderrLine(containing: "approve this device on your other device")
                let number = try #require(
                    shown?.firstMatch(of: /pick (\d+) there/).flatMap { Int($0.1) }, "\(registering.stderr)")

                var item: InboxItem?
                for _ in 0..<40 where item == nil {
                    item = try await phone.run(["inbox", "--json", "--wait", "2"]).json(Inbox.self).items.first
                }
                let waiting = try #require(item)
                #expect(waiting.kind == .enrollment && waiting.name == name)
                let numbers = try #require(waiting.numbers)
                #expect(numbers.count == 3 && numbers.contains(number), "\(number) among \(numbers)")
                let listed = try await phone.run(["inbox"])
                #expect(listed.stdout.contains(numbers.map(String.init).joined(separator: " / ")), "\(listed)")
                let decided: CommandResult
                if approve {
                    // Approving needs the number the new device shows.
                    let unpicked = try await phone.run(["approve", waiting.id, "--verifier", "match"])
                    expectOneErrorLine(unpicked, mentioning: ["--number"])
                    decided = try await phone.run(["approve", waiting.id, "--verifier", "match", "--number", String(number)])
                } else {
                    decided = try await phone.run(["deny", waiting.id, "--verifier", "match"])
                }
                #expect(decided.status == 0, "\(decided)")
                let result = try await registering.finish()
                let status = try await tablet.status()
                if approve {
                    #expect(result.status == 0 && !result.timedOut, "\(result)")
                    #expect(status.registered)
                    #expect(try await tablet.login(["--verifier", "match"], options: ["--device-name", name]).amr == ["bio"])
                } else {
                    #expect(result.status != 0 && result.stderr.contains("denied"), "\(result)")
                    #expect(!status.registered)
                    #expect(try tablet.fileNames().allSatisfy { $0 == "vendor-id" })
                }
            }
            #expect(try await DeviceCLI.serverDevices(server).filter { $0.revokedAt == nil }.count == 2)
        }
    }

    @Test func stepUpThenANewPIN() async throws {
        try await DeviceCLI.withServer { server, client in
            try await DeviceCLI.createAccount("ana", on: client)
            let phone = try DeviceCLI.Profile(server)
            try await phone.register("ana")
            _ = try await phone.login(["--verifier", "match"])
            let early = try await phone.run(["set-pin", "--pin", "357924"])
            #expect(early.status != 0 && early.stderr.contains("step-up"), "\(early)")
            let wrong = try await phone.run(["step-up", "--password-stdin"], input: "not the password\n")
            #expect(wrong.status != 0 && wrong.stderrLines.count == 1, "\(wrong)")
            let stepped = try await phone.run(["step-up", "--password-stdin"], input: DeviceCLI.password + "\n")
            #expect(stepped.status == 0, "\(stepped)")
            let trivial = try await phone.run(["set-pin", "--pin", "111111"])
            #expect(trivial.status != 0 && trivial.stderr.contains("PIN"), "\(trivial)")
            #expect(try await phone.run(["set-pin", "--pin", "357924"]).status == 0)
            #expect(try await phone.login(["--pin", "357924"]).amr == ["pin"])
            let old = try await phone.run(["login", "--pin", DeviceCLI.pin])
            #expect(old.status != 0 && old.stderr.contains("wrong PIN"), "\(old)")
        }
    }
}
