import Foundation
import Testing
import TouchstoneProtocol
import TouchstoneTestSupport

/// One line per log event, each line of a request naming its `X-Request-Id`: text by default, and with
/// `LOG_FORMAT=json` one JSON object per line; what a client sent never writes a line of its own.
@Suite struct LogFormatTests {
    @Test func textLinesNameTheRequestAndItsMetadata() async throws {
        try await withServer(environment: ["LOG_LEVEL": "debug"]) { server, client in
            let answer = try await client.get("/v1/apps/com.example.demo/policy", headers: ["X-Request-Id": "trace-7"])
            #expect(answer.status == 200, "\(answer)")
            var line: Substring?
            let deadline = Date().addingTimeInterval(10)
            while line == nil, Date() < deadline {
                line = try server.stderrLog().split(separator: "\n").first { $0.contains("request_id=trace-7") }
                if line == nil { try await Task.sleep(for: .milliseconds(100)) }
            }
            // `time level label : key=value … [source] message`, the keys sorted.
            let log = try server.stderrLog()
            let text = String(try #require(line, "\(log.suffix(500))"))
            #expect(text.contains(" debug "), "\(text)")
            #expect(text.contains("method=GET path=/v1/apps/com.example.demo/policy request_id=trace-7 status=200"), "\(text)")
            #expect(text.hasSuffix("] request"), "\(text)")
        }
    }

    @Test func jsonLinesNameTheRequest() async throws {
        try await withServer(environment: ["LOG_FORMAT": "json", "LOG_LEVEL": "debug"]) { server, client in
            let answer = try await client.get("/v1/apps/com.example.demo/policy", headers: ["X-Request-Id": "trace-42"])
            #expect(answer.status == 200 && answer.headers["x-request-id"] == "trace-42", "\(answer)")
            var lines: [[String: Any]] = []
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline {
                let log = try server.stderrLog().split(separator: "\n")
                lines = try log.map { line in
                    try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
                }
                if lines.contains(where: { $0["request_id"] as? String == "trace-42" }) { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            let request = lines.filter { $0["request_id"] as? String == "trace-42" }
            #expect(!request.isEmpty, "\(lines.suffix(3))")
            #expect(request.allSatisfy { $0["level"] is String && $0["message"] is String && $0["time"] is String })
        }
    }

    /// Regression (issue 29, finding 1): a self-registered user sent a `clientDataJSON` whose `type` held a line break
    /// and a line of the attacker's making; the refusal's `notice` copied it into the log, and the text format wrote
    /// it as a line of its own.
    @Test(arguments: ["text", "json"])
    func aClientDataTypeCannotWriteALineOfItsOwn(format: String) async throws {
        let forged = "2026-01-01T00:00:00Z critical touchstone.serve : [TouchstoneDomain] admin signed in"
        let type = "webauthn.get\n" + forged + "\r\u{2028}\u{1B}[2K\\n"
        try await withServer(environment: ["LOG_FORMAT": format]) { server, client in
            let username = "mallory"
            let password = "tangerine-Orbit-5521"
            let created = try await client.post("/v1/accounts", CreateAccountRequest(username: username, password: password))
            try #require(created.status == 201, "\(created)")
            let signedIn = try await client.post(
                "/v1/sessions/password", PasswordLoginRequest(clientId: "com.example.demo", username: username, password: password))
            let bearer = ["Authorization": "Bearer \(try signedIn.decode(Session.self).accessToken)"]
            let options = try await client.send("POST", "/v1/webauthn/registration/options", body: Data("{}".utf8), headers: bearer)
            let ceremony = try options.object()
            let challenge = try #require((ceremony["publicKey"] as? [String: Any])?["challenge"] as? String, "\(options)")
            let clientData = try JSONSerialization.data(
                withJSONObject: ["type": type, "challenge": challenge, "origin": server.issuer], options: [.sortedKeys])
            let verify = try JSONSerialization.data(withJSONObject: [
                "ceremonyId": try #require(ceremony["ceremonyId"] as? String),
                "credential": [
                    "id": "AAAA", "rawId": "AAAA", "type": "public-key", "clientExtensionResults": [String: String](),
                    "response": ["clientDataJSON": Base64URL.encode(clientData), "attestationObject": "oA"],
                ],
            ])
            let refused = try await client.send("POST", "/v1/webauthn/registration/verify", body: verify, headers: bearer)
            #expect(refused.status == 401 && (try? refused.decode(Problem.self).code) == .webauthnVerificationFailed, "\(refused)")

            var log = ""
            let deadline = Date().addingTimeInterval(10)
            while !log.contains("passkey registration refused"), Date() < deadline {
                try await Task.sleep(for: .milliseconds(100))
                log = try server.stderrLog()
            }
            let lines = log.split(separator: "\n").map(String.init)
            let refusal = try #require(lines.first { $0.contains("passkey registration refused") }, "\(log.suffix(1000))")
            #expect(!lines.contains { $0.hasPrefix("2026-01-01T00:00:00Z") }, "\(log.suffix(1000))")
            #expect(!log.unicodeScalars.contains { $0 == "\r" || $0 == "\u{2028}" || $0 == "\u{1B}" }, "\(log.suffix(1000))")
            if format == "json" {
                let object = try #require(try JSONSerialization.jsonObject(with: Data(refusal.utf8)) as? [String: String])
                #expect(object["detail"] == "type " + type, "\(refusal)")
            } else {
                #expect(refusal.contains(#"detail=type webauthn.get\n2026-01-01T00:00:00Z critical"#), "\(refusal)")
                #expect(refusal.contains(#"admin signed in\r\u2028\u001b[2K\\n"#), "\(refusal)")
            }
        }
    }
}
