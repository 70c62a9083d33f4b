import Crypto
import Foundation
import Testing
import TouchstoneAttestation
import SwiftASN1
import X509

/// Reading the files of `Vectors/`.
enum Vectors {
    static func url(_ path: String) throws -> URL {
        let directory = try #require(Bundle.module.resourceURL).appendingPathComponent("Vectors")
        return directory.appendingPathComponent(path)
    }

    static func data(_ path: String) throws -> Data {
        try Data(contentsOf: try url(path))
    }

    static func text(_ path: String) throws -> String {
        String(decoding: try data(path), as: UTF8.self)
    }

    /// An ISO 8601 instant, with or without milliseconds.
    static func date(_ text: String) throws -> Date {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = text.contains(".") ? [.withInternetDateTime, .withFractionalSeconds] : [.withInternetDateTime]
        return try #require(formatter.date(from: text), "not an instant: \(text)")
    }

    static func base64(_ text: String) throws -> [UInt8] {
        Array(try #require(Data(base64Encoded: text), "not base64: \(text.prefix(20))…"))
    }

    /// The DER of every certificate of a PEM file, in order.
    static func chain(_ path: String) throws -> [[UInt8]] {
        try PEMDocument.parseMultiple(pemString: try text(path)).map(\.derBytes)
    }

    /// A JSON file as a dictionary; `//` comment lines (upstream's tegu files have them) are left out.
    static func json(_ path: String) throws -> [String: Any] {
        let lines = try text(path).split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
        let object = try JSONSerialization.jsonObject(with: Data(lines.joined(separator: "\n").utf8))
        return try #require(object as? [String: Any])
    }

    /// The value of a top-level `field: value` line of a yaml file.
    static func yamlField(_ field: String, in path: String) throws -> String {
        let line = try #require(try text(path).split(separator: "\n").first { $0.hasPrefix(field + ": ") })
        return String(line.dropFirst(field.count + 2))
    }

    static func sha256(_ bytes: some DataProtocol) -> [UInt8] {
        Array(SHA256.hash(data: Array(bytes)))
    }

    /// A copy with one bit of the byte at `index` (from the end when negative) flipped.
    static func flipped(_ bytes: [UInt8], at index: Int) -> [UInt8] {
        var copy = bytes
        copy[index < 0 ? copy.count + index : index] ^= 0x01
        return copy
    }
}
