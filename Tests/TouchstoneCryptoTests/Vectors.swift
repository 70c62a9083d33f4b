import Foundation

/// Conformance vector files copied into `Tests/Vectors/`, found from this file's path.
enum Vectors {
    /// `Tests/Vectors/`: this file is `<package>/Tests/TouchstoneCryptoTests/Vectors.swift`.
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Tests/TouchstoneCryptoTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // package root
        .appendingPathComponent("Tests")
        .appendingPathComponent("Vectors")

    /// The bytes of `Tests/Vectors/<path>`.
    static func data(_ path: String) throws -> Data {
        try Data(contentsOf: folder.appendingPathComponent(path))
    }

    /// The text of `Tests/Vectors/<path>`, without surrounding white space.
    static func text(_ path: String) throws -> String {
        String(decoding: try data(path), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Decodes `Tests/Vectors/<path>` as JSON.
    static func json<T: Decodable>(_ path: String, as _: T.Type = T.self) throws -> T {
        try JSONDecoder().decode(T.self, from: data(path))
    }
}

/// `jose/rfc8037_A4.json`: RFC 8037 Appendix A.1 key, A.3 thumbprint and A.4 JWS.
struct RFC8037Vector: Decodable {
    struct Key: Decodable {
        var kty: String
        var crv: String
        var d: String
        var x: String
    }

    var jwk: Key
    var payload_text: String
    var jws: String
    var thumbprint_sha256: String
}
