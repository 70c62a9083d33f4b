/// What came of one POST to a push service or token endpoint.
enum PushExchange: Sendable {
    /// The status, the `Retry-After` delay when one was named, and the body (at most ``PushConnection/bodyLimit``).
    case answered(status: Int, retryAfter: Duration?, body: [UInt8])
    /// No answer within the time allowed, or no connection: `reason` names which, never the URL.
    case noAnswer(reason: String)
}
