import Foundation

/// A temporary directory of one test, removed when the test is done with it.
public final class ScratchDirectory {
    public let url: URL

    public init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("touchstone-cli-tests-\(UUID().uuidString.lowercased())", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The path of a file in this directory.
    public func path(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }

    /// The names of the files in this directory.
    public func fileNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
