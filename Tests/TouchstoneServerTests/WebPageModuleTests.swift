import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TouchstoneProtocol

@testable import TouchstoneHTTP

/// The web page's ES modules: every one the page loads is served, and their API paths come from the server's endpoint
/// table (`endpoints.js`), never typed in the page.
@Suite struct WebPageModuleTests {
    static let web: WebController? = try? WebController.bundled(
        accountClientId: "com.example.demo", relyingPartyId: "localhost")

    /// The page's scripts but `endpoints.js` (the server writes that one), by name.
    static func scripts(_ web: WebController) -> [String: String] {
        Dictionary(
            uniqueKeysWithValues: web.files.filter { $0.name.hasSuffix(".js") && $0.name != "endpoints.js" }
                .map { ($0.name, String(buffer: $0.body)) })
    }

    /// `script` without its comments (what follows `//` on a line, and `/* … */`).
    static func code(_ script: String) -> String {
        script.replacing(#/\/\*.*?\*\/|\/\/[^\n]*/#.dotMatchesNewlines(), with: "")
    }

    /// What `pattern`'s group matched, at each match in `text`.
    static func captures(_ pattern: Regex<(Substring, Substring)>, in text: String) -> [String] {
        text.matches(of: pattern).map { String($0.output.1) }
    }

    @Test("no script of the page types an API path: each comes from the server's endpoint table")
    func noPathTyped() throws {
        let web = try #require(Self.web)
        for (name, text) in Self.scripts(web) {
            for endpoint in Endpoint.all {
                let fixed = String(endpoint.template.prefix { $0 != "{" })
                for quote in ["\"", "'", "`"] {
                    #expect(!text.contains(quote + fixed), "\(name) types the path of \(endpoint)")
                }
            }
        }
    }

    @Test("endpoints.js holds, from the protocol's table, exactly the endpoints the page's scripts call")
    func endpointsModule() throws {
        let web = try #require(Self.web)
        let module = try #require(web.files.first { $0.name == "endpoints.js" })
        #expect(module.contentType == "text/javascript; charset=utf-8")
        let text = String(buffer: module.body)
        var exported: Set<String> = []
        for (name, endpoint) in PageEndpoints.table {
            #expect(
                text.contains(
                    #"export const \#(name) = Object.freeze({"method":"\#(endpoint.method)","#
                        + #""template":"\#(endpoint.template)"});"#), "\(name) is \(endpoint)")
            exported.insert(name)
        }
        #expect(Set(Self.captures(#/export const (\w+)/#, in: text)) == exported)
        let used = Set(
            Self.scripts(web).values.flatMap { Self.captures(#/[^\/\w]endpoints\.(\w+)/#, in: Self.code($0)) })
        #expect(
            used == exported,
            "used but not exported: \(used.subtracting(exported)); unused: \(exported.subtracting(used))")
    }

    @Test("every module the page loads is served as JavaScript with the security headers, and every script is loaded")
    func modulesServed() async throws {
        let web = try #require(Self.web)
        let html = String(buffer: web.page.body)
        let entry = Self.captures(#/<script type="module" src="\/([\w.-]+)"><\/script>/#, in: html)
        #expect(entry == ["app.js"])
        let router = Router(context: TouchstoneRequestContext.self)
        router.add(middleware: SecurityHeadersMiddleware())
        router.addRoutes(web.routes)
        let loaded = try await Application(router: router).test(.router) { client in
            var pending = entry
            var loaded: Set<String> = []
            while let name = pending.popLast() {
                guard loaded.insert(name).inserted else { continue }
                let response = try await client.execute(uri: "/" + name, method: .get)
                #expect(response.status == .ok, "\(name)")
                #expect(response.headers[.contentType] == "text/javascript; charset=utf-8", "\(name)")
                #expect(response.headers[.xContentTypeOptions] == "nosniff", "\(name)")
                #expect(
                    response.headers[.contentSecurityPolicy] == "default-src 'none'; frame-ancestors 'none'", "\(name)")
                pending += Self.captures(#/from "\.\/([\w.-]+)";/#, in: String(buffer: response.body))
            }
            return loaded
        }
        let scripts = Set(web.files.map(\.name).filter { $0.hasSuffix(".js") })
        #expect(loaded == scripts, "served but never loaded: \(scripts.subtracting(loaded))")
    }

    @Test("the page's words are for problem codes the server has")
    func messagesForKnownCodes() throws {
        let web = try #require(Self.web)
        let messages = try #require(Self.scripts(web)["messages.js"])
        let table = try #require(
            messages.firstMatch(of: #/export const SERVER_MESSAGES = \{(.*?)\n\};/#.dotMatchesNewlines())?.output.1)
        let codes = Self.captures(#/\n  (\w+):/#, in: String(table))
        #expect(codes.count > 20)
        for code in codes where code != "network" {
            #expect(ProblemStatus.row(ProblemCode(rawValue: code)) != nil, "\(code) is no problem code of the server")
        }
    }
}
