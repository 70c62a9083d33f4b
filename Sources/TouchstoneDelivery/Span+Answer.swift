import Tracing

extension Span {
    /// Records the answer's HTTP status on an ``OutboundSpan`` (`http.response.status_code`), or none when no answer
    /// came; either is an error unless the status is below 400.
    package func recordAnswer(status: Int?) {
        if let status { attributes["http.response.status_code"] = status }
        if (status ?? 599) >= 400 { setStatus(SpanStatus(code: .error)) }
    }

    /// ``recordAnswer(status:)`` with the status of `exchange`, if it was answered.
    func recordAnswer(_ exchange: PostExchange) {
        guard case .answered(let status, _, _) = exchange else { return recordAnswer(status: nil) }
        recordAnswer(status: status)
    }
}
