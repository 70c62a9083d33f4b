/// What an admin list pages, and the member its page holds it in (`users`, `events`).
package protocol AdminPageItem: Sendable, Codable, Equatable {
    static var listMember: String { get }
}

/// A page of an admin list: `{<plural>: […], next}`, `next` the cursor of the next page, or null after the last.
package struct AdminPage<Item: AdminPageItem>: Sendable, Codable, Equatable {
    package var items: [Item]
    package var next: String?

    package init(items: [Item], next: String?) {
        self.items = items
        self.next = next
    }

    /// The list's member, or `next`.
    private struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }

        init(stringValue: String) {
            self.stringValue = stringValue
        }

        init?(intValue: Int) { nil }

        static var items: Key { Key(stringValue: Item.listMember) }
        static var next: Key { Key(stringValue: "next") }
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        items = try container.decode([Item].self, forKey: .items)
        next = try container.decodeIfPresent(String.self, forKey: .next)
    }

    /// `next` as null on the last page.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(items, forKey: .items)
        try container.encode(next, forKey: .next)
    }
}
