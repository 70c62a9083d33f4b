import Foundation
import Logging
import Synchronization
import Testing
import TouchstoneServer

/// Log safety as a property of the handler (issue 29, finding 1; PROTOCOL "Operations"): whatever a call site logs —
/// in the message, a metadata value, the source or the label — each record is exactly one line, no line holds a
/// control character or a line separator, and every value reads back as it was logged.
@Suite struct LineLogHandlerTests {
    /// Every control character (Unicode Cc), the line and paragraph separators, and the escape character itself.
    static let hostile: [Unicode.Scalar] = {
        let controls: [UInt32] = Array(0x00...0x1F) + [0x7F] + Array(0x80...0x9F)
        return controls.compactMap(Unicode.Scalar.init) + ["\u{2028}", "\u{2029}", "\\"]
    }()

    /// One value per hostile character between two letters, and one with all of them and a quote.
    static let values: [String] =
        hostile.map { "a\($0)b" } + ["all:" + String(String.UnicodeScalarView(hostile)) + "\"end"]

    @Test func theTextFormatWritesOneLinePerRecordAndEscapesWhatCouldBreakIt() throws {
        let lines = try Self.lines(of: .text)
        #expect(lines.count == Self.values.count)
        for (line, value) in zip(lines, Self.values) {
            // `time level label : detail=value [source] message`: an escaped value holds no space.
            let fields = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
            try #require(fields.count == 7, "\(line.debugDescription)")
            #expect(fields[1] == "notice" && fields[3] == ":", "\(line.debugDescription)")
            #expect(fields[4].hasPrefix("detail=") && fields[5].hasPrefix("[") && fields[5].hasSuffix("]"))
            for escaped in [fields[2], String(fields[4].dropFirst("detail=".count)), String(fields[5].dropFirst().dropLast()), fields[6]] {
                #expect(try Self.unescaped(escaped) == value, "\(escaped.debugDescription) for \(value.debugDescription)")
            }
        }
        #expect(lines[0].hasSuffix(#" a\u0000b"#) && lines[10].hasSuffix(#" a\nb"#))
        #expect(lines[27].hasSuffix(#" a\u001bb"#) && lines[32].hasSuffix(#" a\u007fb"#))
        #expect(lines[65].hasSuffix(#" a\u2028b"#) && lines[67].hasSuffix(#" a\\b"#))
    }

    @Test func theJSONFormatWritesOneObjectPerLineThatDecodesToTheValues() throws {
        let lines = try Self.lines(of: .json)
        #expect(lines.count == Self.values.count)
        for (line, value) in zip(lines, Self.values) {
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String], "\(line.debugDescription)")
            #expect(object["level"] == "notice" && object["time"] != nil)
            for key in ["label", "detail", "source", "message"] {
                #expect(object[key] == value, "\(key) of \(line.debugDescription)")
            }
        }
    }

    /// What a handler in `format` writes for one record per value of ``values``, split at `\n`: each line checked to
    /// hold no control character and no U+2028/U+2029 (a reader could take either for a line break).
    private static func lines(of format: LineLogHandler.Format) throws -> [String] {
        let output = WrittenBytes()
        for value in values {
            let logger = Logger(label: value) { LineLogHandler(label: $0, format: format) { output.append($0) } }
            logger.notice("\(value)", metadata: ["detail": .string(value)], source: value)
        }
        let text = try #require(String(data: output.bytes, encoding: .utf8))
        #expect(text.hasSuffix("\n"))
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        for line in lines {
            #expect(
                !line.unicodeScalars.contains { $0.properties.generalCategory == .control || $0 == "\u{2028}" || $0 == "\u{2029}" },
                "\(line.debugDescription)")
        }
        return lines
    }

    /// The text format's escapes undone: `\\`, `\n`, `\r`, `\t` and `\uXXXX`; any other `\` is an error, so a value
    /// that could pass for an escape fails the test.
    private static func unescaped(_ escaped: String) throws -> String {
        var result = String.UnicodeScalarView()
        var scalars = escaped.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            guard scalar == "\\" else {
                result.append(scalar)
                continue
            }
            switch scalars.next() {
            case "\\": result.append("\\")
            case "n": result.append("\n")
            case "r": result.append("\r")
            case "t": result.append("\t")
            case "u":
                let hex = String(String.UnicodeScalarView((0..<4).compactMap { _ in scalars.next() }))
                let code = try #require(UInt32(hex, radix: 16).flatMap(Unicode.Scalar.init), "\\u\(hex)")
                result.append(code)
            case let other: throw UnknownEscape(character: other)
            }
        }
        return String(result)
    }

    struct UnknownEscape: Error {
        var character: Unicode.Scalar?
    }

    /// The bytes a handler wrote.
    final class WrittenBytes: Sendable {
        private let data = Mutex(Data())

        var bytes: Data { data.withLock { $0 } }

        func append(_ bytes: Data) {
            data.withLock { $0.append(bytes) }
        }
    }
}
