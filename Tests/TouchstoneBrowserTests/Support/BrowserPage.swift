import Foundation
import TouchstoneTestSupport

/// One tab of headless Chromium, with a virtual platform authenticator (CTAP2, internal transport, resident keys,
/// user verification that always succeeds): what a test clicks, types, reads and photographs.
struct BrowserPage: Sendable {
    /// A script that threw in the page, or a condition that did not hold in time.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let connection: DevToolsConnection
    let sessionId: String
    let targetId: String
    let authenticatorId: String

    /// How long a wait may take on two busy cores; waits return as soon as their condition holds.
    static let patience: TimeInterval = 60

    /// Opens a new tab, attaches to it, and adds the virtual authenticator.
    static func open(on connection: DevToolsConnection) async throws -> BrowserPage {
        let created = try await connection.send("Target.createTarget", ["url": "about:blank"])
        let targetId = try require(created["targetId"]?.string, "Target.createTarget: \(created)")
        let attached = try await connection.send("Target.attachToTarget", ["targetId": .string(targetId), "flatten": true])
        let sessionId = try require(attached["sessionId"]?.string, "Target.attachToTarget: \(attached)")
        for domain in ["Page.enable", "Runtime.enable", "Network.enable", "Log.enable"] {
            try await connection.send(domain, sessionId: sessionId)
        }
        try await connection.send("WebAuthn.enable", ["enableUI": false], sessionId: sessionId)
        let added = try await connection.send(
            "WebAuthn.addVirtualAuthenticator",
            [
                "options": [
                    "protocol": "ctap2", "transport": "internal", "hasResidentKey": true, "hasUserVerification": true,
                    "isUserVerified": true, "automaticPresenceSimulation": true,
                ]
            ], sessionId: sessionId)
        let authenticatorId = try require(added["authenticatorId"]?.string, "addVirtualAuthenticator: \(added)")
        let page = BrowserPage(
            connection: connection, sessionId: sessionId, targetId: targetId, authenticatorId: authenticatorId)
        try await page.resize(width: 1280, height: 900)
        return page
    }

    /// Sends a command to this tab.
    @discardableResult
    func send(_ method: String, _ params: JSONValue = [:]) async throws -> JSONValue {
        try await connection.send(method, params, sessionId: sessionId)
    }

    /// Opens `url` and waits until the page says it is ready (`body[data-ready]`).
    func navigate(_ url: URL) async throws {
        try await send("Page.navigate", ["url": .string(url.absoluteString)])
        try await waitUntil("document.body && document.body.dataset.ready === 'true'", "the page to load")
    }

    /// The value of a JavaScript expression (promises awaited), as JSON.
    @discardableResult
    func evaluate(_ expression: String) async throws -> JSONValue {
        let answer = try await send(
            "Runtime.evaluate", ["expression": .string(expression), "awaitPromise": true, "returnByValue": true])
        if let exception = answer["exceptionDetails"] {
            throw Failure(description: "the page threw for `\(expression)`: \(exception)")
        }
        return answer["result"]?["value"] ?? .null
    }

    /// Waits until `condition` (a JavaScript expression) is true, polling every 100 ms for up to ``patience``.
    ///
    /// A poll that a navigation interrupts (the page the expression ran in went away) counts as "not yet": pages
    /// navigate on their own (a sign-in that returns to a site, a form post), and the next poll reads the new page.
    func waitUntil(_ condition: String, _ what: String, timeout: TimeInterval = patience) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if try await holdsUnlessNavigating(condition) { return }
            guard Date() < deadline else {
                let page = try await summary()
                throw Failure(description: "waited \(Int(timeout)) s for \(what) (`\(condition)`); page: \(page)")
            }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// The messages Chromium answers a `Runtime.evaluate` with when the document it ran in was replaced meanwhile.
    private static let navigationInterruptions: Set<String> = [
        "Inspected target navigated or closed", "Cannot find context with specified id", "Execution context was destroyed.",
    ]

    private func holdsUnlessNavigating(_ condition: String) async throws -> Bool {
        do {
            return try await evaluate("Boolean(\(condition))").bool == true
        } catch let failure as DevToolsConnection.Failure
            where failure.browserMessage.map(Self.navigationInterruptions.contains) == true
        {
            return false
        }
    }

    /// Waits until the element matching `selector` is shown (not hidden, with a box).
    func waitUntilVisible(_ selector: String, timeout: TimeInterval = patience) async throws {
        try await waitUntil(Self.visibleScript(selector), "\(selector) to show", timeout: timeout)
    }

    /// Whether the element matching `selector` is shown now.
    func isVisible(_ selector: String) async throws -> Bool {
        try await evaluate(Self.visibleScript(selector)).bool == true
    }

    /// The element's text, whitespace collapsed.
    func text(_ selector: String) async throws -> String {
        try await evaluate(
            "(document.querySelector(\(Self.quoted(selector)))?.textContent ?? '').replace(/\\s+/g, ' ').trim()"
        ).string ?? ""
    }

    /// Clicks the middle of the element like a mouse does (moved, pressed, released).
    func click(_ selector: String) async throws {
        try await waitUntilVisible(selector)
        let box = try await evaluate(
            """
            (() => { const e = document.querySelector(\(Self.quoted(selector))); e.scrollIntoView({block: 'center'});
              const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()
            """)
        guard case .number(let x)? = box[0], case .number(let y)? = box[1] else {
            throw Failure(description: "no box for \(selector): \(box)")
        }
        try await send("Input.dispatchMouseEvent", ["type": "mouseMoved", "x": .number(x), "y": .number(y)])
        for type in ["mousePressed", "mouseReleased"] {
            try await send(
                "Input.dispatchMouseEvent",
                ["type": .string(type), "x": .number(x), "y": .number(y), "button": "left", "clickCount": 1])
        }
    }

    /// Replaces the text of an input: focuses it, selects what is there, and types `text`.
    func type(_ selector: String, _ text: String) async throws {
        try await waitUntilVisible(selector)
        try await evaluate("(() => { const e = document.querySelector(\(Self.quoted(selector))); e.focus(); e.select(); })()")
        try await send("Input.insertText", ["text": .string(text)])
        let value = try await evaluate("document.querySelector(\(Self.quoted(selector))).value").string
        guard value == text else { throw Failure(description: "\(selector) holds \(value ?? "nothing") after typing") }
    }

    /// Sets the viewport (CSS pixels).
    func resize(width: Int, height: Int, mobile: Bool = false) async throws {
        try await send(
            "Emulation.setDeviceMetricsOverride",
            ["width": .number(Double(width)), "height": .number(Double(height)), "deviceScaleFactor": 1,
             "mobile": .bool(mobile)])
    }

    /// Saves a PNG of the whole page as `test-output/browser/NAME.png` in the package.
    @discardableResult
    func screenshot(_ name: String) async throws -> URL {
        // Let transitions and the focus ring settle.
        try await Task.sleep(for: .milliseconds(250))
        let shot = try await send("Page.captureScreenshot", ["format": "png", "captureBeyondViewport": true])
        let base64 = try Self.require(shot["data"]?.string, "Page.captureScreenshot gave no data")
        let data = try Self.require(Data(base64Encoded: base64), "the screenshot is not base64")
        let folder = TouchstoneExecutable.packageRoot.appendingPathComponent("test-output/browser", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent(name + ".png")
        try data.write(to: file)
        return file
    }

    /// The request bodies this tab posted to URLs ending with `pathSuffix`, in order.
    func postedBodies(to pathSuffix: String) async throws -> [String] {
        var bodies: [String] = []
        for event in connection.events {
            guard event.sessionId == sessionId, event.method == "Network.requestWillBeSent",
                let request = event.params["request"], request["method"]?.string == "POST",
                let url = request["url"]?.string, url.hasSuffix(pathSuffix)
            else { continue }
            if let body = request["postData"]?.string {
                bodies.append(body)
            } else if let requestId = event.params["requestId"] {
                let posted = try await send("Network.getRequestPostData", ["requestId": requestId])
                bodies.append(try Self.require(posted["postData"]?.string, "no post data for \(url)"))
            }
        }
        return bodies
    }

    /// Console errors and messages the browser logged for this tab (CSP violations among them).
    func problemsLogged() -> [String] {
        connection.events.compactMap { event in
            guard event.sessionId == sessionId else { return nil }
            switch event.method {
            case "Log.entryAdded":
                let entry = event.params["entry"]
                guard entry?["level"]?.string == "error" else { return nil }
                return "\(entry?["source"]?.string ?? "log"): \(entry?["text"]?.string ?? "") \(entry?["url"]?.string ?? "")"
            case "Runtime.exceptionThrown":
                return "exception: \(event.params["exceptionDetails"] ?? .null)"
            case "Runtime.consoleAPICalled" where event.params["type"]?.string == "error":
                return "console.error: \(event.params["args"] ?? .null)"
            default:
                return nil
            }
        }
    }

    /// The visible view and any messages shown, for failure reports.
    func summary() async throws -> String {
        try await evaluate(
            """
            (() => { const shown = [...document.querySelectorAll('[data-view]')].filter(v => !v.hidden).map(v => v.id);
              const errors = [...document.querySelectorAll('.field-error, #banner, #toast')].filter(e => !e.hidden)
                .map(e => e.id + ': ' + e.textContent.trim());
              return JSON.stringify({view: shown, messages: errors}); })()
            """
        ).string ?? "?"
    }

    static func quoted(_ text: String) -> String {
        String(decoding: (try? JSONValue.string(text).serialized()) ?? Data("\"\"".utf8), as: UTF8.self)
    }


    private static func require<T>(_ value: T?, _ message: @autoclosure () -> String) throws -> T {
        guard let value else { throw Failure(description: message()) }
        return value
    }
}
