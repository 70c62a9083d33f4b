import Foundation
import HTTPTypes
import Hummingbird
import TouchstoneProtocol

extension ProblemError: HTTPResponseError {
    var status: HTTPResponse.Status { HTTPResponse.Status(code: statusCode) }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers: HTTPFields = [.contentType: "application/problem+json", .cacheControl: "no-store"]
        if let retryAfter {
            headers[.retryAfter] = String(retryAfter)
        }
        let body = try WireCoding.encoder().encode(problem)
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}

extension ProblemError {
    /// The problem for an error Hummingbird raised itself (unknown route, body too large…).
    static func from(httpStatus: HTTPResponse.Status) -> ProblemError {
        switch httpStatus.code {
        case 404: ProblemError(404, .notFound, "No such resource.")
        case 405: ProblemError(405, .methodNotAllowed, "This method is not allowed here.")
        case 413: ProblemError(413, .payloadTooLarge, "The body is larger than 64 KiB.")
        case 400..<500: ProblemError(httpStatus.code, .invalidRequest, httpStatus.reasonPhrase)
        default: ProblemError(503, .serviceUnavailable, "The service is unavailable; try again.")
        }
    }
}
