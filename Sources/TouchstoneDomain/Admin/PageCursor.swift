import Foundation
import TouchstoneProtocol

/// The admin API's paging: a page size, and an opaque cursor naming where the next page starts (keyset paging: a page
/// goes on from the last row of the one before, so rows inserted meanwhile neither repeat nor shift a page).
///
/// A cursor is base64url of a JSON array of strings: what it pages first (`users`, `audit`), then that row's keys.
enum PageCursor {
    /// The page size `limit` asks for: 1 to 100, 50 when it is absent.
    /// - Throws: `invalid_request` outside 1 to 100.
    static func pageSize(_ limit: Int?) throws -> Int {
        guard let limit else { return 50 }
        guard (1...100).contains(limit) else { throw ProblemError.invalidRequest("limit must be 1 to 100") }
        return limit
    }

    /// The cursor that goes on after a row with these keys.
    static func encode(_ kind: String, _ keys: [String]) throws -> String {
        Base64URL.encode(try JSONEncoder().encode([kind] + keys))
    }

    /// The keys of a cursor this server gave for `kind`, `count` of them; `nil` for no cursor.
    /// - Throws: `invalid_request` for anything else.
    static func decode(_ cursor: String?, kind: String, count: Int) throws -> [String]? {
        guard let cursor else { return nil }
        guard let data = Base64URL.decode(cursor),
            let values = try? JSONDecoder().decode([String].self, from: data), values.count == count + 1,
            values[0] == kind
        else { throw ProblemError.invalidRequest("cursor is not one this server gave for this list") }
        return Array(values.dropFirst())
    }

    /// A page of `rows` fetched with one row more than `size`: the first `size`, and the cursor after the last of them
    /// when there are more.
    static func page<Row>(_ rows: [Row], size: Int, cursor: (Row) throws -> String) throws
        -> (rows: [Row], next: String?)
    {
        guard rows.count > size, let last = rows.prefix(size).last else { return (rows, nil) }
        return (Array(rows.prefix(size)), try cursor(last))
    }
}
