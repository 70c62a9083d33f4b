import Foundation
import Synchronization
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

    /// A verifier found through `PATH` with these scripts first on it.
    func verifier() -> FprintdVerifier? {
        Self.withPATH(Self.path(first: directory)) { FprintdVerifier(user: Self.user) }
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

    private static let pathLock = Mutex(())

    /// Runs `body` with `PATH` set to `path`, then restores it at once.
    ///
    /// Tests run in parallel in one process, and processes started meanwhile inherit `PATH`: the change lasts only
    /// while `body` runs (a verifier resolves its commands to absolute paths when it is made), and a lock keeps two
    /// changes from overlapping.
    static func withPATH<T>(_ path: String, _ body: () -> T) -> T {
        pathLock.withLock { _ in
            let saved = ProcessInfo.processInfo.environment["PATH"]
            setenv("PATH", path, 1)
            defer {
                if let saved { setenv("PATH", saved, 1) } else { unsetenv("PATH") }
            }
            return body()
        }
    }
}
