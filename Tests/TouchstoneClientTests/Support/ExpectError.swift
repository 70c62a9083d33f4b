import Testing
import TouchstoneClient
import TouchstoneProtocol

/// Expects `body` to throw a ``TouchstoneError`` with `code` (and, for `server`, the protocol code `serverCode`).
/// - Returns: the error, for further checks.
@discardableResult
func expectError<R>(
    _ code: TouchstoneError.Code, serverCode: ProblemCode? = nil, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> R
) async -> TouchstoneError? {
    let error = await #expect(throws: TouchstoneError.self, sourceLocation: sourceLocation) {
        _ = try await body()
    }
    #expect(error?.code == code, "\(String(describing: error))", sourceLocation: sourceLocation)
    if let serverCode {
        #expect(error?.serverCode == serverCode, "\(String(describing: error))", sourceLocation: sourceLocation)
    }
    return error
}
