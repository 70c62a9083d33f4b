import Foundation
import Synchronization

/// Values decoded from stored JSON text, by that text: a row read again decodes nothing again.
///
/// The text is the key, so an entry can never be stale: a changed row has other text and is decoded afresh. It
/// caches parsing only; every read still reads the row.
final class DecodedJSONCache<Value: Decodable & Sendable>: Sendable {
    private let capacity: Int
    private let values = Mutex<[String: Value]>([:])

    /// - Parameter capacity: the most values kept; beyond it, an arbitrary entry makes room for each new one.
    package init(capacity: Int) {
        self.capacity = capacity
    }

    /// The value `text` decodes to.
    package func decode(_ text: String) throws -> Value {
        if let value = values.withLock({ $0[text] }) { return value }
        let value = try JSONDecoder().decode(Value.self, from: Data(text.utf8))
        values.withLock { values in
            if values.count >= capacity, let any = values.keys.first {
                values.removeValue(forKey: any)
            }
            values[text] = value
        }
        return value
    }
}
