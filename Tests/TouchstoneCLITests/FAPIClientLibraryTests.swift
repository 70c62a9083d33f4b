import Foundation
import Testing
import TouchstoneTestSupport

/// A FAPI 2.0 client (PAR, private_key_jwt and DPoP) written with a library nobody here wrote: Python's
/// requests-oauth2client from PyPI (installed by `scripts/test`), against `touchstone serve`, with a client registered
/// by `admin app create --jwks … --fapi`.
@Suite struct FAPIClientLibraryTests {
    @Test func requestsOAuth2ClientSignsInAsAFAPIClientThroughPARWithItsKeyAndDPoP() async throws {
        try await DeviceCLI.withServer { server, client in
            let scratch = try ScratchDirectory()
            let keys = try await Self.python(["keys", scratch.path("private.jwk"), scratch.path("jwks.json")])
            try #require(keys.status == 0, "\(keys)")
            let privateKey = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: scratch.path("private.jwk")))))
            try JSONSerialization.data(withJSONObject: ["keys": [privateKey]]).write(
                to: URL(fileURLWithPath: scratch.path("leaked.json")))

            // A JWK Set holding a private key is refused in one line, and nothing is stored.
            let leaked = try await server.admin([
                "app", "create", "bank", "--publisher", "banks", "--redirect-uri", "http://127.0.0.1:9/callback",
                "--jwks", scratch.path("leaked.json"),
            ])
            #expect(leaked.status != 0 && leaked.stderrLines.count == 1, "\(leaked)")
            #expect(leaked.stderr.contains("private member"), "\(leaked)")
            #expect(try await client.get("/v1/apps/bank/policy").status == 404, "nothing was stored")

            // --fapi without keys, or with RS256 ID tokens: one line, and nothing is stored.
            for (name, options) in [
                ("no --jwks", ["--fapi"]), ("RS256", ["--fapi", "--jwks", scratch.path("jwks.json"), "--id-token-alg", "RS256"]),
            ] {
                let refused = try await server.admin(
                    ["app", "create", "bank", "--publisher", "banks", "--redirect-uri", "http://127.0.0.1:9/callback"]
                        + options)
                #expect(refused.status != 0 && refused.stderrLines.count == 1, "\(name): \(refused)")
                #expect(try await client.get("/v1/apps/bank/policy").status == 404, "\(name): nothing was stored")
            }

            let created = try await server.admin([
                "app", "create", "bank", "--publisher", "banks", "--redirect-uri", "http://127.0.0.1:9/callback",
                "--jwks", scratch.path("jwks.json"), "--fapi",
            ])
            try #require(created.status == 0, "\(created)")
            let account = try await client.post("/v1/accounts", ["username": "ana", "password": "correct horse"])
            try #require(account.status == 201, "\(account)")

            let result = try await Self.python([
                "run", server.issuer, "bank", scratch.path("private.jwk"), "http://127.0.0.1:9/callback", "ana",
                "correct horse",
            ])
            #expect(result.status == 0, "\(result)")
            for step in [
                "discovery names private_key_jwt", "without PAR is refused", "PAR with private_key_jwt",
                "state and iss validated", "DPoP-bound token, ID token validated", "userinfo with Authorization: DPoP",
                "refused with a DPoP challenge", "the refresh token is not rotated",
            ] {
                #expect(result.stdout.contains(step), "\(step): \(result)")
            }

            // set-jwks with a private member changes nothing: the client still signs in (above) with its key.
            let replaced = try await server.admin(["app", "set-jwks", "bank", scratch.path("leaked.json")])
            #expect(replaced.status != 0 && replaced.stderrLines.count == 1, "\(replaced)")
            #expect(replaced.stderr.contains("private member"), "\(replaced)")
            let again = try await Self.python([
                "run", server.issuer, "bank", scratch.path("private.jwk"), "http://127.0.0.1:9/callback", "ana",
                "correct horse",
            ])
            #expect(again.status == 0, "\(again)")
            let unknown = try await server.admin(["app", "set-jwks", "nobody", scratch.path("jwks.json")])
            #expect(unknown.status != 0 && unknown.stderrLines.count == 1, "\(unknown)")
        }
    }

    /// Runs the script with `arguments` to its end (at most two minutes).
    private static func python(_ arguments: [String]) async throws -> CommandResult {
        let script = TouchstoneExecutable.packageRoot.appendingPathComponent("Tests/TouchstoneCLITests/Scripts/fapi_client.py")
        return try await TouchstoneExecutable.run(
            ["python3", script.path] + arguments, executable: URL(fileURLWithPath: "/usr/bin/env"), in: try ScratchDirectory(),
            timeout: 120)
    }
}
