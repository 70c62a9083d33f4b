import Foundation
import Testing
import TouchstoneProtocol
import TouchstoneTestSupport

/// A `touchstone serve` at `http://localhost:PORT` and a Chromium tab showing its page.
struct BrowserHarness {
    static let password = "tangerine-Orbit-5521"

    let server: ServerProcess
    let client: WireClient
    let page: BrowserPage

    /// Starts both, opens the page at the server's issuer (`localhost`: WebAuthn refuses IP origins), runs `body`,
    /// and stops both however it ends.
    /// - Parameter passkeyAutofill: let the page offer passkeys in autofill (conditional mediation). The virtual
    ///   authenticator answers such a request at once with its first passkey, as if the user picked it, so only the
    ///   test of that feature turns it on; the others click their way as a person would.
    static func run(passkeyAutofill: Bool = false, _ body: (BrowserHarness) async throws -> Void) async throws {
        try await withServer(atLocalhost: true) { server, client in
            do {
                try await Chromium.withPage { page in
                    if !passkeyAutofill {
                        try await page.send(
                            "Page.addScriptToEvaluateOnNewDocument",
                            ["source": "if (window.PublicKeyCredential) PublicKeyCredential.isConditionalMediationAvailable = async () => false;"])
                    }
                    try await page.navigate(server.issuerURL)
                    try await body(BrowserHarness(server: server, client: client, page: page))
                }
            } catch {
                Issue.record("the server's log:\n\(((try? server.stderrLog()) ?? "").suffix(4000))")
                throw error
            }
        }
    }

    /// Creates an account over HTTP.
    func createAccount(_ username: String) async throws {
        let created = try await client.post(
            "/v1/accounts", CreateAccountRequest(username: username, password: Self.password))
        try #require(created.status == 201, "POST /v1/accounts: \(created)")
    }

    /// A password session over HTTP, for checking what the server holds.
    func passwordSession(_ username: String) async throws -> Session {
        let answer = try await client.post(
            "/v1/sessions/password",
            PasswordLoginRequest(clientId: "com.example.demo", username: username, password: Self.password))
        try #require(answer.status == 201, "POST /v1/sessions/password: \(answer)")
        return try answer.decode(Session.self)
    }

    /// The names of the user's passkeys, as the server lists them.
    func serverPasskeyNames(_ username: String) async throws -> [String] {
        let session = try await passwordSession(username)
        let answer = try await client.get(
            "/v1/webauthn/credentials", headers: ["Authorization": "Bearer \(session.accessToken)"])
        try #require(answer.status == 200, "GET /v1/webauthn/credentials: \(answer)")
        let credentials = try #require(try answer.object()["credentials"] as? [[String: Any]])
        return credentials.map { $0["name"] as? String ?? "" }
    }

    /// POSTs a raw JSON body.
    func post(_ path: String, json: Data) async throws -> WireResponse {
        try await client.send("POST", path, body: json)
    }

    /// `touchstone device --profile PROFILE --server ISSUER ARGUMENTS`, a phone for the web-login tests; it must succeed.
    @discardableResult
    func device(
        _ profile: ScratchDirectory, _ arguments: [String], input: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> CommandResult {
        let result = try await TouchstoneExecutable.run(
            ["device", "--profile", profile.path("profile"), "--server", server.issuer] + arguments, input: input,
            in: profile)
        try #require(result.status == 0 && !result.timedOut, "touchstone device \(arguments): \(result)",
            sourceLocation: sourceLocation)
        return result
    }
}
