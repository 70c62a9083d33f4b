/// What came of one try of a CIBA ping.
package enum PingAnswer: Sendable, Equatable {
    /// The client's endpoint answered 2xx.
    case delivered
    /// A 5xx or 429, or no answer: tried again later, until the request expires.
    case retry(reason: String)
    /// Any other answer: given up.
    case failed(reason: String)

    /// The answer an HTTP status means.
    package init(status: Int) {
        switch status {
        case 200..<300: self = .delivered
        case 429, 500..<600: self = .retry(reason: "HTTP \(status)")
        default: self = .failed(reason: "HTTP \(status)")
        }
    }
}
