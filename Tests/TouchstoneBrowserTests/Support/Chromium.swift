import Foundation
import TouchstoneTestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Headless Chromium as a process with its own profile folder, driven over the DevTools protocol.
///
/// Use ``withPage(_:)``: the browser is stopped however the test ends.
enum Chromium {
    struct NotFound: Error, CustomStringConvertible {
        var description: String {
            "Chromium was not found: install Debian's `chromium` package (scripts/test does) or set CHROMIUM_BIN"
        }
    }

    struct StartFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// `CHROMIUM_BIN`, or the first of chromium, chromium-browser, google-chrome on the PATH.
    static func executable() throws -> URL {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["CHROMIUM_BIN"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        let folders = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
        for name in ["chromium", "chromium-browser", "google-chrome"] {
            for folder in folders {
                let path = folder + "/" + name
                if FileManager.default.isExecutableFile(atPath: path) { return URL(fileURLWithPath: path) }
            }
        }
        throw NotFound()
    }

    /// Starts Chromium, opens a blank page with a virtual authenticator, and runs `body` with it.
    static func withPage<T: Sendable>(_ body: (BrowserPage) async throws -> T) async throws -> T {
        let scratch = try ScratchDirectory()
        let profile = scratch.path("profile")
        try FileManager.default.createDirectory(atPath: profile, withIntermediateDirectories: true)
        let stdoutPath = scratch.path("chromium.out")
        let stderrPath = scratch.path("chromium.err")
        let process = try TouchstoneExecutable.launch(
            try executable(),
            [
                "--headless=new", "--no-sandbox", "--remote-debugging-port=0", "--user-data-dir=\(profile)",
                "--no-first-run", "--no-default-browser-check", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-extensions", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--password-store=basic", "--mute-audio", "--hide-scrollbars",
                "--window-size=1280,900", "about:blank",
            ],
            in: scratch, environment: [:], stdoutPath: stdoutPath, stderrPath: stderrPath)
        defer { stop(process) }
        let endpoint = try await devToolsEndpoint(
            profile: profile, process: process, log: { (try? TouchstoneExecutable.readText(stderrPath)) ?? "" })
        return try await DevToolsConnection.withConnection(to: endpoint) { connection in
            let page = try await BrowserPage.open(on: connection)
            return try await body(page)
        }
    }

    /// Reads `DevToolsActivePort` (port, then path) once Chromium has written it.
    private static func devToolsEndpoint(
        profile: String, process: Process, log: () -> String
    ) async throws -> String {
        let file = profile + "/DevToolsActivePort"
        let deadline = Date().addingTimeInterval(90)
        while Date() < deadline {
            if let text = try? String(contentsOfFile: file, encoding: .utf8) {
                let lines = text.split(whereSeparator: \.isNewline).map(String.init)
                if lines.count >= 2, let port = Int(lines[0]) {
                    return "ws://127.0.0.1:\(port)\(lines[1])"
                }
            }
            guard process.isRunning else {
                throw StartFailure(description: "Chromium exited with \(process.terminationStatus):\n\(log())")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw StartFailure(description: "Chromium wrote no DevToolsActivePort within 90 s:\n\(log())")
    }

    /// SIGTERM, then SIGKILL after 5 s.
    private static func stop(_ process: Process) {
        guard process.isRunning else { return }
        process.terminate()
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}
