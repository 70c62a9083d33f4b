/// What came of one POST to a push service, a token endpoint or a webhook.
enum PostExchange: Sendable {
    /// The status, the `Retry-After` delay when one was named, and the body (at most ``PushConnection/bodyLimit``;
    /// empty from a webhook, whose answer's body is not read).
    case answered(status: Int, retryAfter: Duration?, body: [UInt8])
    /// No answer within the time allowed, no connection, or an address refused: `reason` names which, never the URL.
    case noAnswer(reason: String)
}
