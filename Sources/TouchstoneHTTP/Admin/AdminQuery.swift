import Foundation
import Hummingbird
import TouchstoneDomain

/// The query of an admin list: its text parameters, and those the route turns into numbers and times (400
/// `invalid_request` when they are not).
struct AdminQuery {
    private let parameters: Parameters

    init(_ request: Request) {
        parameters = request.uri.queryParameters
    }

    /// The parameter's text (the first, when repeated).
    subscript(_ name: String) -> String? {
        parameters.get(name)
    }

    /// `limit` as a number; the service holds it to its range.
    func limit() throws -> Int? {
        try self["limit"].map { text in
            guard let limit = Int(text) else { throw ProblemError.invalidRequest("limit takes a number from 1 to 100") }
            return limit
        }
    }

    /// An RFC 3339 time (`2026-11-21T12:00:00Z`, fractional seconds and offsets allowed).
    func time(_ name: String) throws -> Date? {
        try self[name].map { text in
            guard let date = RFC3339.date(text) else {
                throw ProblemError.invalidRequest("\(name) takes an RFC 3339 time such as 2026-11-21T12:00:00Z")
            }
            return date
        }
    }
}

/// RFC 3339 §5.6 `date-time`, with `T` and `Z` in either case (its §5.6 note).
enum RFC3339 {
    static func date(_ text: String) -> Date? {
        let text = text.uppercased()
        let whole = ISO8601DateFormatter()
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions.insert(.withFractionalSeconds)
        return whole.date(from: text) ?? fractional.date(from: text)
    }
}
