import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
import TouchstoneProtocol

@testable import TouchstoneDomain
@testable import TouchstoneHTTP
@testable import TouchstoneServer
@testable import TouchstoneStorage

/// The protocol's endpoint table (`Endpoint.all`), which the server, the SDK and the bench use, against what the
/// server documents and routes.
@Suite struct EndpointTableTests {
    /// The operations of `openapi.yaml` (or another document, `admin-openapi.yaml`): each path key with the methods
    /// under it.
    static func documentedOperations(in document: String = TouchstoneRouter.openAPIDocument) -> Set<String> {
        var operations: Set<String> = []
        var path: String?
        for line in document.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("  /"), line.hasSuffix(":") {
                path = String(line.dropFirst(2).dropLast())
            } else if line.hasPrefix("  "), !line.hasPrefix("   "), !line.hasPrefix("  /") {
                path = nil
            } else if let path, line.hasPrefix("    "), !line.hasPrefix("     "), line.hasSuffix(":") {
                let method = line.trimmingCharacters(in: .whitespaces).dropLast().uppercased()
                if ["GET", "POST", "PUT", "DELETE", "PATCH"].contains(method) { operations.insert("\(method) \(path)") }
            } else if !line.hasPrefix(" "), !line.isEmpty {
                path = nil
            }
        }
        return operations
    }

    @Test func everyEndpointIsDocumentedAndEveryDocumentedOperationIsInTheTable() {
        let documented = Self.documentedOperations()
        let table = Set(Endpoint.all.map(\.description))
        #expect(table.subtracting(documented).isEmpty, "not in openapi.yaml: \(table.subtracting(documented).sorted())")
        #expect(documented.subtracting(table).isEmpty, "not in the table: \(documented.subtracting(table).sorted())")
    }

    @Test func everyEndpointIsRouted() async throws {
        try await Harness.run(configure: { $0.touchIDAuthCompat = true }) { h in
            for endpoint in Endpoint.all {
                let values = Array(repeating: "x", count: endpoint.template.filter { $0 == "{" }.count)
                let path = endpoint.path(values: values)
                let response = try await h.send(HTTPRequest.Method(endpoint.method) ?? .get, path, raw: "{}")
                // The router's own answers for a path or method it does not know (a service's 404 says what it
                // did not find).
                let unrouted =
                    response.status == .methodNotAllowed
                    || (response.status == .notFound
                        && (try? h.problem(response)).map { $0.code == .notFound && $0.detail == nil } == true)
                #expect(!unrouted, "\(endpoint) is not routed")
            }
        }
    }

    @Test func pathsFillTheTemplateWithEncodedSegments() {
        #expect(Endpoint.pollEnrollment.path("ab c/d") == "/v1/enrollments/ab%20c%2Fd")
        #expect(Endpoint.removePasskey.path("a-b_c.d~e") == "/v1/webauthn/credentials/a-b_c.d~e")
        #expect(Endpoint.inbox.routerPattern == "v1/devices/:deviceId/inbox")
        #expect(Endpoint.health.path() == "/healthz")
    }
}
