/// Users by name for administrators, a page at a time. Every method is atomic on its own.
package protocol UserDirectoryStore: Sendable {
    /// Up to `limit` users that `match` keeps, by username, from just after the username `after` on.
    func users(_ match: UserMatch, after: String?, limit: Int) async throws -> [UserRecord]
}

/// Which users a directory page holds.
package enum UserMatch: Sendable, Equatable {
    case all
    /// The user with exactly this username.
    case username(String)
    /// Users whose username starts with this.
    case prefix(String)
}
