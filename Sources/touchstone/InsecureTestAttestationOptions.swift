import ArgumentParser
import Foundation
import TouchstoneClient
import TouchstoneDomain
import TouchstoneInsecureTestAttestation

/// `device register --insecure-test-attestation-ca DIR --insecure-test-attestation-app PACKAGE:SHA256`: an Android key
/// attestation made by a test CA, for end-to-end tests of attested enrolment on a machine without secure hardware.
struct InsecureTestAttestationOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "TESTS ONLY: attest the keys with the test CA kept in this directory (made there when empty).",
        discussion: """
            Only a server started with --insecure-attestation-root DIR/root.pem accepts these attestations; \
            a production server refuses them.
            """))
    var insecureTestAttestationCa: String?

    @Option(help: "TESTS ONLY: the PACKAGE:SHA256 the test attestation names (with --insecure-test-attestation-ca).")
    var insecureTestAttestationApp: String?

    func validate() throws {
        guard (insecureTestAttestationCa == nil) == (insecureTestAttestationApp == nil) else {
            throw ValidationError("--insecure-test-attestation-ca and --insecure-test-attestation-app go together")
        }
    }

    /// The test attestor, or `nil` when not asked for.
    func attestor() throws -> (any KeyAttestor)? {
        guard let directory = insecureTestAttestationCa, let app = insecureTestAttestationApp else { return nil }
        let parts = app.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, let digest = HexDigits.bytes(String(parts[1])), digest.count == 32 else {
            throw ValidationError("--insecure-test-attestation-app takes PACKAGE:SHA256 (64 lowercase hexadecimal digits)")
        }
        return InsecureTestKeyAttestor(
            ca: try InsecureTestAttestationCA.inDirectory(URL(fileURLWithPath: directory)),
            packageName: String(parts[0]), signingCertificateSHA256: digest)
    }
}
