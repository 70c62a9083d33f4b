import Foundation
import Testing
import TouchstoneProtocol
import TouchstoneTestSupport

/// Checks that an answer is an `application/problem+json` with `status` and `code`, and every required member.
func expectProblem(
    _ response: WireResponse, status: Int, code: String, sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(response.status == status, "\(response)", sourceLocation: sourceLocation)
    #expect(
        response.header("Content-Type")?.hasPrefix("application/problem+json") == true,
        "Content-Type \(response.header("Content-Type") ?? "none") of \(response)", sourceLocation: sourceLocation)
    guard let object = try? response.object() else {
        Issue.record("not a JSON object: \(response)", sourceLocation: sourceLocation)
        return
    }
    #expect((object["type"] as? String)?.isEmpty == false, "type of \(response)", sourceLocation: sourceLocation)
    #expect((object["title"] as? String)?.isEmpty == false, "title of \(response)", sourceLocation: sourceLocation)
    #expect((object["status"] as? Int) == status, "status member of \(response)", sourceLocation: sourceLocation)
    #expect((object["code"] as? String) == code, "code of \(response)", sourceLocation: sourceLocation)
}
