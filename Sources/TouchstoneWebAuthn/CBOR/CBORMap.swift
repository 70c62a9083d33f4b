/// A decoded CBOR map: its entries in the order received, with keys known to be unique.
public struct CBORMap: Sendable, Hashable {
    /// One key/value pair.
    public struct Entry: Sendable, Hashable {
        public let key: CBORValue
        public let value: CBORValue

        public init(key: CBORValue, value: CBORValue) {
            self.key = key
            self.value = value
        }
    }

    /// The entries, in the order they appear in the input.
    public let entries: [Entry]

    public init(_ entries: [Entry]) {
        self.entries = entries
    }

    /// The value stored under `key`, or nil.
    public subscript(key: CBORValue) -> CBORValue? {
        entries.first { $0.key == key }?.value
    }

    /// The value stored under the integer key `key`, or nil.
    public subscript(int key: Int) -> CBORValue? {
        entries.first { $0.key.int == key }?.value
    }

    /// The value stored under the text key `key`, or nil.
    public subscript(text key: String) -> CBORValue? {
        entries.first { $0.key.text == key }?.value
    }

    /// The number of entries.
    public var count: Int { entries.count }
}
