import Foundation
import HTTPTypes
import Hummingbird
import TouchstoneDomain
import TouchstoneProtocol

extension ProblemError: HTTPResponseError {
    package var status: HTTPResponse.Status { HTTPResponse.Status(code: ProblemStatus.of(code).status) }

    package func response(from request: Request, context: some RequestContext) throws -> Response {
        let (status, title) = ProblemStatus.of(code)
        return try Problem(
            status: status, code: code, title: title, detail: detail, attemptsRemaining: attemptsRemaining
        ).response(retryAfter: retryAfter)
    }
}

extension Problem {
    /// The problem for an error Hummingbird raised itself (unknown route, body too large…).
    static func from(httpStatus: HTTPResponse.Status) -> Problem {
        let code: ProblemCode =
            switch httpStatus.code {
            case 404: .notFound
            case 405: .methodNotAllowed
            case 413: .payloadTooLarge
            case 400..<500: .invalidRequest
            default: .serviceUnavailable
            }
        if code == .invalidRequest {
            return Problem(status: httpStatus.code, code: code, title: httpStatus.reasonPhrase)
        }
        let (status, title) = ProblemStatus.of(code)
        return Problem(status: status, code: code, title: title)
    }

    /// This problem as an `application/problem+json` answer, never cached.
    func response(retryAfter: Int? = nil) throws -> Response {
        var headers: HTTPFields = [.contentType: "application/problem+json", .cacheControl: "no-store"]
        if let retryAfter {
            headers[.retryAfter] = String(retryAfter)
        }
        let body = try WireCoding.encoder().encode(self)
        return Response(
            status: HTTPResponse.Status(code: status), headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}
