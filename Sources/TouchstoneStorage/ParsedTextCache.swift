import Foundation
import Synchronization

/// Values parsed from stored text, by that text: a row read again parses nothing again.
///
/// The text is the key, so an entry can never be stale: a changed row has other text and is parsed afresh. It caches
/// parsing only; every read still reads the row.
final class ParsedTextCache<Value: Sendable>: Sendable {
    private let capacity: Int
    private let parse: @Sendable (String) throws -> Value
    private let values = Mutex<[String: Value]>([:])

    /// - Parameters:
    ///   - capacity: the most values kept; beyond it, an arbitrary entry makes room for each new one.
    ///   - parse: what a text becomes; it must depend on the text alone.
    init(capacity: Int, parse: @escaping @Sendable (String) throws -> Value) {
        self.capacity = capacity
        self.parse = parse
    }

    /// The value `text` parses to, parsed now when it is not cached.
    /// - Throws: what `parse` throws (nothing is cached then).
    func value(of text: String) throws -> Value {
        if let value = values.withLock({ $0[text] }) { return value }
        let value = try parse(text)
        values.withLock { values in
            if values.count >= capacity, let any = values.keys.first {
                values.removeValue(forKey: any)
            }
            values[text] = value
        }
        return value
    }
}
