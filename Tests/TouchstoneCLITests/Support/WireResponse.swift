import Foundation

/// One HTTP answer.
struct WireResponse: Sendable, CustomStringConvertible {
    var status: Int
    /// Header fields, names lowercased.
    var headers: [String: String]
    var body: Data

    func header(_ name: String) -> String? {
        headers[name.lowercased()]
    }

    /// The body decoded with the protocol's decoder.
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONDecoder.wire.decode(type, from: body)
    }

    /// The body as a JSON object.
    func object() throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: body) as? [String: Any] else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "not a JSON object: \(text)"))
        }
        return object
    }

    var text: String { String(decoding: body, as: UTF8.self) }

    var description: String { "HTTP \(status) \(text)" }
}
