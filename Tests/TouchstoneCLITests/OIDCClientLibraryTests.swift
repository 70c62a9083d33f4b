import Foundation
import Testing
import TouchstoneTestSupport

/// "Sign in with Touchstone" for a site written with a client library nobody here wrote: Python's Authlib from PyPI
/// (installed by `scripts/test`), against `touchstone serve`. The script drives the code flow with PKCE and a nonce,
/// ID token validation against the JWKS, userinfo, single sign-on, `prompt`, refresh with rotation, PAR and logout.
@Suite struct OIDCClientLibraryTests {
    @Test func authlibSignsInValidatesTheIDTokenRefreshesAndLogsOut() async throws {
        try await DeviceCLI.withServer { server, client in
            let created = try await server.admin([
                "app", "create", "shop", "--publisher", "shops", "--name", "The Shop", "--redirect-uri",
                "http://127.0.0.1:9/callback", "--post-logout-redirect-uri", "http://127.0.0.1:9/bye", "--client-secret",
            ])
            try #require(created.status == 0, "\(created)")
            let secret = try #require(created.stdoutLines.last)
            #expect(created.stdout.contains("shown only now"), "\(created)")
            let account = try await client.post("/v1/accounts", ["username": "ana", "password": "correct horse"])
            try #require(account.status == 201, "\(account)")

            let script = TouchstoneExecutable.packageRoot.appendingPathComponent(
                "Tests/TouchstoneCLITests/Scripts/oidc_relying_party.py")
            let result = try await Self.python([
                script.path, server.issuer, "shop", secret, "http://127.0.0.1:9/callback", "http://127.0.0.1:9/bye", "ana",
                "correct horse",
            ])
            #expect(result.status == 0, "\(result)")
            for step in [
                "discovery", "ID token validated by Authlib", "userinfo", "single sign-on", "prompt=none",
                "reuse detection", "pushed authorization request", "logout",
            ] {
                #expect(result.stdout.contains(step), "\(step): \(result)")
            }
        }
    }

    @Test func aClientSecretIsShownOnceAndABadRedirectURIChangesNothing() async throws {
        try await withServer { server, client in
            let refused = try await server.admin([
                "app", "create", "shop", "--publisher", "shops", "--redirect-uri", "http://shop.example/callback",
            ])
            #expect(refused.status != 0 && refused.stderrLines.count == 1, "\(refused)")
            #expect(refused.stderr.contains("https"), "\(refused)")
            #expect(try await client.get("/v1/apps/shop/policy").status == 404, "nothing was stored")

            let json = try await server.admin([
                "app", "create", "shop", "--publisher", "shops", "--redirect-uri", "https://shop.example/callback",
                "--client-secret", "--json",
            ])
            #expect(json.status == 0 && json.stdoutLines.count == 1, "\(json)")
            let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
            #expect((object?["clientSecret"] as? String)?.count == 43, "\(json)")
            #expect(object?["redirectUris"] as? [String] == ["https://shop.example/callback"], "\(json)")

            // A confidential client does not become public by being saved again without --client-secret.
            let demoted = try await server.admin([
                "app", "create", "shop", "--publisher", "shops", "--redirect-uri", "https://shop.example/other",
            ])
            #expect(demoted.status != 0 && demoted.stderr.contains("--client-secret"), "\(demoted)")
        }
    }

    /// Runs `python3` with `arguments` to its end (at most two minutes).
    private static func python(_ arguments: [String]) async throws -> CommandResult {
        try await TouchstoneExecutable.run(
            ["python3"] + arguments, executable: URL(fileURLWithPath: "/usr/bin/env"), in: try ScratchDirectory(),
            timeout: 120)
    }
}
