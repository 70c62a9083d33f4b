import Foundation
import Testing
import TouchstoneTestSupport

/// One line per log event, each line of a request naming its `X-Request-Id`: text by default, and with
/// `LOG_FORMAT=json` one JSON object per line.
@Suite struct LogFormatTests {
    @Test func textLinesNameTheRequestAndItsMetadata() async throws {
        try await withServer(environment: ["LOG_LEVEL": "debug"]) { server, client in
            let answer = try await client.get("/v1/apps/com.example.demo/policy", headers: ["X-Request-Id": "trace-7"])
            #expect(answer.status == 200, "\(answer)")
            var line: Substring?
            let deadline = Date().addingTimeInterval(10)
            while line == nil, Date() < deadline {
                line = try server.stderrLog().split(separator: "\n").first { $0.contains("request_id=trace-7") }
                if line == nil { try await Task.sleep(for: .milliseconds(100)) }
            }
            // `time level label : key=value … [source] message`, the keys sorted.
            let log = try server.stderrLog()
            let text = String(try #require(line, "\(log.suffix(500))"))
            #expect(text.contains(" debug "), "\(text)")
            #expect(text.contains("method=GET path=/v1/apps/com.example.demo/policy request_id=trace-7 status=200"), "\(text)")
            #expect(text.hasSuffix("] request"), "\(text)")
        }
    }

    @Test func jsonLinesNameTheRequest() async throws {
        try await withServer(environment: ["LOG_FORMAT": "json", "LOG_LEVEL": "debug"]) { server, client in
            let answer = try await client.get("/v1/apps/com.example.demo/policy", headers: ["X-Request-Id": "trace-42"])
            #expect(answer.status == 200 && answer.headers["x-request-id"] == "trace-42", "\(answer)")
            var lines: [[String: Any]] = []
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline {
                let log = try server.stderrLog().split(separator: "\n")
                lines = try log.map { line in
                    try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
                }
                if lines.contains(where: { $0["request_id"] as? String == "trace-42" }) { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            let request = lines.filter { $0["request_id"] as? String == "trace-42" }
            #expect(!request.isEmpty, "\(lines.suffix(3))")
            #expect(request.allSatisfy { $0["level"] is String && $0["message"] is String && $0["time"] is String })
        }
    }
}
