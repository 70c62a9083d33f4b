#if os(Linux) || os(macOS)
import Foundation

/// Fingerprint verification on Linux through fprintd's command-line tools (`fprintd-list`, `fprintd-verify`).
///
/// Compiled only on Linux and macOS: it runs the tools with `Process`, which iOS does not have.
public struct FprintdVerifier: UserVerifier {
    /// The user whose enrolled fingers are checked.
    public let user: String
    private let verifyCommand: URL
    private let listCommand: URL

    /// `nil` when `fprintd-verify` and `fprintd-list` are not found.
    /// - Parameter searchPath: where to look, as `PATH` lists directories; the process's `PATH` by default.
    public init?(
        user: String = ProcessInfo.processInfo.environment["USER"] ?? "root",
        searchPath: String = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    ) {
        guard let verify = Self.find("fprintd-verify", in: searchPath), let list = Self.find("fprintd-list", in: searchPath)
        else { return nil }
        self.user = user
        self.verifyCommand = verify
        self.listCommand = list
    }

    public func biometryState() async -> BiometryState {
        guard let result = try? await Self.run(listCommand, [user]) else { return .noHardware }
        let output = result.output.lowercased()
        if output.contains("no devices available") { return .noHardware }
        if result.status != 0 || output.contains("has no fingers enrolled") || !output.contains("finger") {
            return .notEnrolled
        }
        return .available(.fingerprint)
    }

    public func verify(prompt: String) async throws {
        FileHandle.standardError.write(Data("\(prompt): touch the fingerprint reader\n".utf8))
        let result: (status: Int32, output: String)
        do {
            result = try await Self.run(verifyCommand, [user])
        } catch {
            throw TouchstoneError(.biometryNotAvailable, "fprintd-verify could not run: \(error)")
        }
        let output = result.output.lowercased()
        if output.contains("verify-match") && result.status == 0 { return }
        if output.contains("no devices available") {
            throw TouchstoneError(.biometryNotAvailable, "no fingerprint reader is available")
        }
        if output.contains("verify-disconnected") || output.contains("verify-unknown-error") {
            throw TouchstoneError(.biometryNotAvailable, "the fingerprint reader failed")
        }
        if output.contains("no fingers enrolled") {
            throw TouchstoneError(.biometryNotEnrolled, "no fingerprint is enrolled")
        }
        throw TouchstoneError(.biometryFailed, "the fingerprint did not match")
    }

    static func find(_ command: String, in searchPath: String) -> URL? {
        for directory in searchPath.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appending(path: command)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    private static func run(_ command: URL, _ arguments: [String]) async throws -> (status: Int32, output: String) {
        try await withCheckedThrowingContinuation { continuation in
            let process = Process()
            process.executableURL = command
            process.arguments = arguments
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = pipe
            process.terminationHandler = { process in
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                continuation.resume(returning: (process.terminationStatus, String(decoding: data, as: UTF8.self)))
            }
            do {
                try process.run()
            } catch {
                continuation.resume(throwing: error)
            }
        }
    }
}
#endif
