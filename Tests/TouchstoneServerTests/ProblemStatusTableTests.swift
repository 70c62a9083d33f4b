import Foundation
import Testing
import TouchstoneProtocol

@testable import TouchstoneHTTP

/// Every problem code the protocol defines has its own row in the one table from code to status and title, and is
/// named in `openapi.yaml`'s list of codes: a code added without a row would answer 500.
@Suite struct ProblemStatusTableTests {
    /// The package's root, from this file's path.
    static let root = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Every code `ProblemCode.swift` defines, as (name of its static member, wire value).
    static func definedCodes() throws -> [(member: String, code: ProblemCode)] {
        let source = try String(
            contentsOf: root.appending(path: "Sources/TouchstoneProtocol/ProblemCode.swift"), encoding: .utf8)
        let definition = /static let (\w+) = Self\(rawValue: "([a-z0-9_]+)"\)/
        return source.matches(of: definition).map { (String($0.1), ProblemCode(rawValue: String($0.2))) }
    }

    @Test func everyDefinedCodeHasAStatusAndATitle() throws {
        let codes = try Self.definedCodes()
        #expect(codes.count >= 40, "the definitions were not found: \(codes.count)")
        for (member, code) in codes {
            let row = try #require(ProblemStatus.row(code), "\(member) (\(code)) has no row")
            #expect((400...599).contains(row.status), "\(code): \(row.status)")
            #expect(!row.title.isEmpty)
            #expect(row.status != 500 || code == .internalError, "\(code) answers 500")
        }
        #expect(Set(codes.map(\.code.rawValue)).count == codes.count, "a wire value is defined twice")
    }

    @Test func everyDefinedCodeIsListedInTheOpenAPIDocument() throws {
        let document = try String(
            contentsOf: Self.root.appending(path: "Sources/TouchstoneHTTP/Resources/openapi.yaml"), encoding: .utf8)
        let start = try #require(document.range(of: "Codes in this version:"))
        let end = try #require(document.range(of: "Later versions may add codes.", range: start.upperBound..<document.endIndex))
        let listed = Set(document[start.upperBound..<end.lowerBound].matches(of: /`([a-z0-9_]+)`/).map { String($0.1) })
        let defined = Set(try Self.definedCodes().map(\.code.rawValue))
        #expect(defined.subtracting(listed).isEmpty, "not listed: \(defined.subtracting(listed).sorted())")
        #expect(listed.subtracting(defined).isEmpty, "listed but not defined: \(listed.subtracting(defined).sorted())")
    }
}
