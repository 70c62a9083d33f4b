import Foundation
import Testing

/// The copied vectors are the shared ones, byte for byte: every file `SHA256SUMS` lists has its digest.
struct VectorFilesTests {
    @Test func everyVectorFileMatchesItsDigest() throws {
        let lines = try Vectors.text("attestation/SHA256SUMS").split(separator: "\n")
        #expect(lines.count >= 30)
        for line in lines {
            let parts = line.split(separator: " ", maxSplits: 1)
            let digest = String(try #require(parts.first))
            let path = String(try #require(parts.last)).trimmingCharacters(in: .whitespaces)
            let actual = Vectors.sha256(try Vectors.data("attestation/" + path)).map { String(format: "%02x", $0) }.joined()
            #expect(actual == digest, "\(path)")
        }
    }

    @Test func theManifestNamesEveryVector() throws {
        let manifest = try VectorManifest.load()
        let named = Set(manifest.android.map(\.chain) + manifest.apple.map(\.file))
        let lines = try Vectors.text("attestation/SHA256SUMS").split(separator: "\n")
        let vectors = lines.compactMap { $0.split(separator: " ", maxSplits: 1).last }
            .map { "attestation/" + $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.hasSuffix(".pem") && !$0.hasSuffix("Root_CA.pem") || $0.hasSuffix(".yaml") || $0.hasSuffix(".b64")
                || $0.hasPrefix("attestation/apple/attestation-") }
        #expect(Set(vectors) == named)
        #expect(named.count == 17)
    }
}
