import Crypto
import Foundation
import Testing
import TouchstoneCrypto
import TouchstoneProtocol
import TouchstoneTestSupport

/// Payment details at sign-in through `touchstone device`: a shop asks for a payment at the authorization endpoint,
/// the sign-in page's phone approval reaches the phone, which shows the payment and signs its `txn`.
@Suite struct PaymentSignInCLITests {
    static let payment = #"[{"type":"payment_initiation","instructedAmount":{"currency":"EUR","amount":"123.50"},"creditorName":"Merchant A"}]"#

    /// Where `GET url` redirects, without following it (Python's urllib, as a browser's first hop).
    static func redirectLocation(_ url: String) throws -> String {
        let script = """
            import sys, urllib.request, urllib.error
            class Stay(urllib.request.HTTPRedirectHandler):
                def redirect_request(self, *args, **kwargs): return None
            try:
                urllib.request.build_opener(Stay).open(sys.argv[1])
            except urllib.error.HTTPError as error:
                print(error.headers.get("Location", ""))
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, url]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func thePhoneShowsTheSignInsPaymentAndApproveSignsItsTxn() async throws {
        try await DeviceCLI.withServer { server, client in
            let created = try await server.admin([
                "app", "create", "shop", "--publisher", "shops", "--name", "The Shop",
                "--redirect-uri", "https://shop.example/callback",
            ])
            try #require(created.status == 0, "\(created)")
            try await DeviceCLI.createAccount("ana", on: client)
            let phone = try DeviceCLI.Profile(server)
            try await phone.register("ana")

            let verifier = SecretDigest.randomToken(bytes: 48)
            let query = [
                ("response_type", "code"), ("client_id", "shop"), ("redirect_uri", "https://shop.example/callback"),
                ("scope", "openid"), ("code_challenge", Base64URL.encode(SHA256.hash(data: Array(verifier.utf8)))),
                ("code_challenge_method", "S256"), ("authorization_details", Self.payment),
            ].map { "\($0.0)=\(PercentEncoding.unreserved($0.1))" }.joined(separator: "&")
            let location = try Self.redirectLocation(server.baseURL.absoluteString + "/oauth2/authorize?" + query)
            let requestId = try #require(location.components(separatedBy: "sign-in=").last, "\(location)")

            let started = try await client.post(
                "/v1/web-logins", WebLoginRequest(username: "ana", signInRequestId: requestId)
            ).decode(WebLoginStarted.self)
            let item = try #require(try await phone.run(["inbox", "--json"]).json(Inbox.self).items.first)
            #expect(item.kind == .webLogin && item.payment?.amount == "123.50" && item.txn != nil)
            let human = try await phone.run(["inbox"])
            #expect(human.stdout.contains("and pay 123.50 EUR to Merchant A"), "\(human)")

            let approved = try await phone.run([
                "approve", started.webLoginId, "--verifier", "match", "--number", String(started.number), "--json",
            ])
            #expect(approved.status == 0, "\(approved)")
            #expect(try approved.json(DecisionRecorded.self).status == .approved)
        }
    }
}
