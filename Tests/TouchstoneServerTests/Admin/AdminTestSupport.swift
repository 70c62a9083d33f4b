import Testing
import TouchstoneProtocol

@testable import TouchstoneDomain

extension Harness {
    /// The admin services of the harness's server.
    var admin: AdminServices { runtime.services.admin }
}

/// Expects `body` to be refused with `code`, and returns the refusal.
@discardableResult
func expectRefusal(
    _ code: ProblemCode, sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> some Any
) async throws -> ProblemError? {
    do {
        _ = try await body()
        Issue.record("expected a refusal with \(code)", sourceLocation: sourceLocation)
        return nil
    } catch let refusal as ProblemError {
        #expect(refusal.code == code, "\(refusal)", sourceLocation: sourceLocation)
        return refusal
    }
}
