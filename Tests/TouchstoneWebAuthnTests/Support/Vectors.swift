import Foundation

/// Reads test vector files from `Tests/Vectors/`, located from this file's path.
enum Vectors {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Support
        .deletingLastPathComponent()  // TouchstoneWebAuthnTests
        .deletingLastPathComponent()  // Tests
        .appendingPathComponent("Vectors")

    static func data(_ path: String) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent(path))
    }

    static func decode<T: Decodable>(_ type: T.Type, _ path: String) throws -> T {
        try JSONDecoder().decode(T.self, from: data(path))
    }
}
