/// An RFC 9457 `application/problem+json` body with Touchstone's stable `code`.
public struct Problem: Codable, Sendable, Equatable {
    public var type: String
    public var title: String
    public var status: Int
    public var code: ProblemCode
    public var detail: String?
    /// Present with `pin_incorrect`.
    public var attemptsRemaining: Int?

    public init(status: Int, code: ProblemCode, title: String, detail: String? = nil, attemptsRemaining: Int? = nil) {
        self.type = "https://touchstone.dev/problems/\(code.rawValue.replacingOccurrences(of: "_", with: "-"))"
        self.title = title
        self.status = status
        self.code = code
        self.detail = detail
        self.attemptsRemaining = attemptsRemaining
    }
}
