import TouchstoneProtocol

extension InboxEntry {
    /// One line for a person: the request's or the notice's.
    var summary: String {
        switch self {
        case .request(let item): item.summary
        case .notice(let notice): notice.summary
        }
    }
}
