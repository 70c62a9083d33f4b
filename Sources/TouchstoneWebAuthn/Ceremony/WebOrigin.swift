/// A web origin as browsers serialize it (`scheme://host[:port]`), parsed strictly for configuration.
struct WebOrigin: Sendable, Hashable {
    let scheme: String
    let host: String
    let port: Int?

    /// The serialization browsers put in clientDataJSON: lowercase, default port omitted, no trailing slash.
    var serialized: String { port.map { "\(scheme)://\(host):\($0)" } ?? "\(scheme)://\(host)" }

    /// Parses `https://host[:port]`, or `http://localhost[:port]` for development.
    /// - Throws: ``WebAuthnError`` with code `invalid_configuration` and a message saying what to change.
    init(_ text: String) throws(WebAuthnError) {
        func fail(_ why: String) -> WebAuthnError {
            WebAuthnError(.invalidConfiguration, "origin \"\(text)\": \(why)")
        }
        let lowered = text.lowercased()
        let scheme: String
        let rest: Substring
        if lowered.hasPrefix("https://") {
            (scheme, rest) = ("https", lowered.dropFirst(8))
        } else if lowered.hasPrefix("http://") {
            (scheme, rest) = ("http", lowered.dropFirst(7))
        } else {
            throw fail("must start with https:// (or http://localhost for development)")
        }
        guard !rest.contains(where: { "/?#@[]\\ ".contains($0) }) else {
            throw fail("write only scheme://host[:port], without path, query, user or brackets")
        }
        let parts = rest.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 2, let hostPart = parts.first else { throw fail("malformed host or port") }
        let host = String(hostPart)
        guard Self.isDomain(host) else { throw fail("host must be a domain name (letters, digits, hyphens, dots)") }
        var port: Int? = nil
        if parts.count == 2 {
            guard let value = Int(parts[1]), parts[1].allSatisfy(\.isASCII), (1...65535).contains(value) else {
                throw fail("port must be 1–65535")
            }
            port = value == (scheme == "https" ? 443 : 80) ? nil : value
        }
        guard scheme == "https" || host == "localhost" else {
            throw fail("plain http is allowed only for localhost; use https")
        }
        self.scheme = scheme
        self.host = host
        self.port = port
    }

    /// Lowercase LDH labels of 1–63 characters, not starting or ending with a hyphen, at most 253 characters, and not
    /// an IPv4 address (the last label is not all digits).
    static func isDomain(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= 253 else { return false }
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        for label in labels {
            guard (1...63).contains(label.utf8.count), label.first != "-", label.last != "-",
                label.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" })
            else { return false }
        }
        return !(labels.last?.allSatisfy(\.isNumber) ?? true)
    }
}
