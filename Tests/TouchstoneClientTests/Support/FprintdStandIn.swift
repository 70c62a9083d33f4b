import Foundation
import TouchstoneClient

/// Stand-in `fprintd-list` and `fprintd-verify` shell scripts in a directory of their own, answering as a real
/// fprintd would; each checks that it is asked about the expected user.
struct FprintdStandIn {
    static let user = "ana"

    let directory: URL

    /// - Parameters:
    ///   - list: what `fprintd-list` prints, and its exit status.
    ///   - verify: what `fprintd-verify` prints, and its exit status.
    init(in parent: URL, list: (output: String, status: Int32), verify: (output: String, status: Int32)) throws {
        directory = parent.appending(path: "fprintd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Self.script("fprintd-list", list, in: directory)
        try Self.script("fprintd-verify", verify, in: directory)
    }

    /// A verifier that searches these scripts' directory first.
    func verifier() -> FprintdVerifier? {
        FprintdVerifier(user: Self.user, searchPath: Self.path(first: directory))
    }

    /// Removes the scripts (after a verifier found them).
    func remove() throws {
        try FileManager.default.removeItem(at: directory)
    }

    private static func script(_ name: String, _ answer: (output: String, status: Int32), in directory: URL) throws {
        precondition(!answer.output.contains("'"), "the stand-in prints its output in single quotes")
        let text = """
            #!/bin/sh
            [ "$1" = "\(user)" ] || { printf 'unexpected user %s\\n' "$1"; exit 99; }
            printf '%s\\n' '\(answer.output)'
            exit \(answer.status)

            """
        let file = directory.appending(path: name)
        try Data(text.utf8).write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: file.path)
    }

    // MARK: PATH

    /// `PATH` as the test process started with it.
    static let originalPATH = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"

    /// `PATH` with `directory` first and without any directory holding a real fprintd command.
    static func path(first directory: URL) -> String {
        let withoutFprintd = originalPATH.split(separator: ":").map(String.init).filter { entry in
            !FileManager.default.fileExists(atPath: entry + "/fprintd-verify")
                && !FileManager.default.fileExists(atPath: entry + "/fprintd-list")
        }
        return ([directory.path] + withoutFprintd).joined(separator: ":")
    }
}
