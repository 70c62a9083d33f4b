import SQLKit

extension SQLStore {
    package func users(_ match: UserMatch, after: String?, limit: Int) async throws -> [UserRecord] {
        var conditions: [SQLQueryString] = []
        switch match {
        case .all: break
        case .username(let username): conditions.append("username = \(bind: username)")
        // By code points (as SQL counts characters), not LIKE: `%` and `_` in the prefix are themselves.
        case .prefix(let prefix):
            conditions.append("substr(username, 1, CAST(\(bind: prefix.unicodeScalars.count) AS INTEGER)) = \(bind: prefix)")
        }
        if let after { conditions.append("username > \(bind: after)") }
        let clause: SQLQueryString =
            conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        return try await provider.read { database in
            try await database.raw(
                "SELECT id, username, password_hash, created_at FROM users \(clause) ORDER BY username LIMIT \(bind: limit)"
            ).all().map(Self.userRecord)
        }
    }
}
