import Foundation

/// One HTTP answer.
public struct WireResponse: Sendable, CustomStringConvertible {
    public var status: Int
    /// Header fields, names lowercased.
    public var headers: [String: String]
    public var body: Data

    public func header(_ name: String) -> String? {
        headers[name.lowercased()]
    }

    /// The body decoded with the protocol's decoder.
    public func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONDecoder.wire.decode(type, from: body)
    }

    /// The body as a JSON object.
    public func object() throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: body) as? [String: Any] else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "not a JSON object: \(text)"))
        }
        return object
    }

    public var text: String { String(decoding: body, as: UTF8.self) }

    public var description: String { "HTTP \(status) \(text)" }
}
